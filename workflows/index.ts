// Every workflow type the worker registers. Workflow files are named after the durable thing they model.
export { SmokeWorkflow } from './smoke';
export { EpisodeWorkflow } from './episode';
export { EvaluationWorkflow } from './evaluation';
export { TrainingRunWorkflow } from './training-run';
export { SftWorkflow } from './sft';
export { StarLoopWorkflow } from './star-loop';
export { PipelineWorkflow } from './pipeline';
