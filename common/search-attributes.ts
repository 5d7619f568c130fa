/** The custom search attributes the workflows upsert; infra/up registers them with the Temporal server. With them,
 * failed episodes are one query away: `temporal workflow list --query 'Outcome="fail"'`. */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TaskId = defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD);
export const Split = defineSearchAttributeKey('Split', SearchAttributeType.KEYWORD);
export const Outcome = defineSearchAttributeKey('Outcome', SearchAttributeType.KEYWORD);
export const ExitReasonKey = defineSearchAttributeKey('ExitReason', SearchAttributeType.KEYWORD);
export const PolicySpecKey = defineSearchAttributeKey('PolicySpec', SearchAttributeType.KEYWORD);
export const EvaluationId = defineSearchAttributeKey('EvaluationId', SearchAttributeType.KEYWORD);
export const PolicyVersion = defineSearchAttributeKey('PolicyVersion', SearchAttributeType.INT);
