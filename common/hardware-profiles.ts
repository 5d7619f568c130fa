/** Hardware profiles: what a machine fixes about a training run, chosen per run (`train --profile <name>`,
 * TrainingRunConfig.profile). Today a profile fixes the dynamic group-size range (common/group-size.ts), overriding the
 * general maximum of 16: the seed's run on three H200s fixed it at 12, because 4 groups of 12 (48 trajectories) were
 * what one optimizer step's microbatches and the rollout pool were sized for. Pure. */
import { z } from 'zod';
import type { GroupSizeBounds } from './group-size';

export interface HardwareProfile {
  /** Where the numbers come from, for a person choosing one. */
  description: string;
  groupSize: GroupSizeBounds;
}

export const HARDWARE_PROFILES = {
  /** This kind of machine: 2 CPU cores, the embedded SmolLM2 on CPU. Small groups finish in minutes; a task near 50 %
   * gets 5 episodes (zero-signal chance 6 %), a task the policy nearly always solves or fails gets 8. */
  'cpu-dev': { description: '2-core CPU, embedded SmolLM2 (README "Train"): groups of 4 to 8', groupSize: { min: 4, max: 8 } },
  /** docs/recipe-3xH200.md: vLLM on one H200, the learner under FSDP on two; the seed fixed the range at 12. */
  '3xh200': { description: 'vLLM on 1 H200, the learner (FSDP1) on 2 (docs/recipe-3xH200.md): groups of 12, as the seed', groupSize: { min: 12, max: 12 } },
} as const satisfies Record<string, HardwareProfile>;

export type HardwareProfileName = keyof typeof HARDWARE_PROFILES;
export const HardwareProfileName = z.enum(Object.keys(HARDWARE_PROFILES) as [HardwareProfileName, ...HardwareProfileName[]]);
export const HARDWARE_PROFILE_NAMES = HardwareProfileName.options;

export function hardwareProfile(name: HardwareProfileName): HardwareProfile {
  return HARDWARE_PROFILES[name];
}
