/**
 * The infrastructure of an episode was lost (the sandbox folder vanished, bwrap or the debugger bridge cannot start,
 * the bridge broke its protocol): not the agent's mistake, so it is thrown rather than observed, and the caller may
 * retry the episode.
 */
export class HarnessInfraError extends Error {}
