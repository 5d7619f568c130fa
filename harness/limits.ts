/**
 * The time and size limits of one episode's tools, each with its reason. A session takes these defaults, overridden
 * per field by its caller (tests shorten the kill paths; the kill paths themselves are the same).
 */

export interface HarnessLimits {
  bashTimeoutMs: number;
  bashIdleMs: number;
  debuggerWaitS: number;
  debuggerStartWaitS: number;
  inspectTimeoutMs: number;
  readFileLines: number;
}

export const LIMITS: HarnessLimits = {
  /** bash: a command may run this long in total… */
  bashTimeoutMs: 60_000,
  /** …but is killed sooner if it prints nothing for this long (a hung command usually goes quiet). */
  bashIdleMs: 20_000,
  /** continue/step: wait this long for the next stop before reporting "still running" with all thread stacks. */
  debuggerWaitS: 5,
  /** start_debugger: pytest start-up plus fixtures before the first stop. */
  debuggerStartWaitS: 20,
  /** Inspection replies (locals, print, eval): a repr or expression that runs longer is treated as hung. */
  inspectTimeoutMs: 10_000,
  /** Read_file shows at most this many lines per call. */
  readFileLines: 200,
};
