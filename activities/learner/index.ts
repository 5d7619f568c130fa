/**
 * The learner wing: everything the GPU activity worker (workers/learner-worker.ts) does with the Python learner.
 *
 *   process.ts      one learner service process (JSON lines over stdin/stdout)
 *   config.ts       the learner config file, written in one place for every job
 *   host.ts         the run's learner, kept in step with the last committed step
 *   batch.ts        groups and trajectory records -> the learner's batch; what it dropped -> the step's counts
 *   train-step.ts   activity trainStep
 *   sft-epoch.ts    activities sftEpoch, publishSftAdapter
 *   publish.ts      activity publishAdapter, and the one publication path (DEBUGRL_PUBLISH_URL, the canary)
 *   model-dir.ts    --model <dir>: the checkpoint checked before anything starts
 *   tokenizer-agreement.ts  the serving side's tokenizer facts, which the learner checks at start-up
 */
export { buildBatch, countDropped, learnerSteps, trainBatch, type BatchTrajectory, type BuiltBatch, type Dropped, type LearnerStep } from './batch';
export { learnerConfig, learnerConfigFor, learnerModelDir, modelSource, type LearnerJob, type LearnerRunOptions, type ServingFacts } from './config';
export { LearnerHost, trainingRunDir } from './host';
export { LearnerProcess, LearnerServiceError, type ServiceMessage } from './process';
export { CANARY_TOLERANCE, createAdapterActivities, publish, PublishInput, publishUrl, type AdapterActivities, type Publication } from './publish';
export { createSftTrainActivities, SftEpochInput, sftSeed, type SftEpochResult, type SftTrainActivities } from './sft-epoch';
export { createLearnerActivities, TrainStepInput, type LearnerActivities } from './train-step';
export { checkModelDir, type CheckpointFacts } from './model-dir';
export { checkTokenizerAgreement, fetchServingFacts, probeConversation, ServingFactsReply } from './tokenizer-agreement';
