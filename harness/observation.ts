/**
 * Bounding what the model sees. Every observation goes through `bound`, so none is larger than its cap, and a cut
 * always says what was cut: a silent truncation reads as "that is all there is" and misleads the policy.
 *
 * Caps are in characters, not tokens: observations are mostly code and numbers (roughly 3-4 characters per token),
 * so 8,000 characters stays near 2-2.5k tokens, which keeps a 50-turn episode inside the seed's 30k-token context
 * only when most observations are far smaller, as they are.
 */

/** Largest observation of any tool. */
export const OBSERVATION_MAX_CHARS = 8000;
/** Program stdout/stderr shown with one debugger observation, per stream. */
export const PROGRAM_OUTPUT_MAX_CHARS = 1500;

/** Keep the head and the tail (the end of output usually holds the error) and say how much was dropped. */
export function bound(text: string, maxChars: number = OBSERVATION_MAX_CHARS, what = 'output'): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  const note = (n: number) => `\n[… ${n} characters of ${what} truncated …]\n`;
  const room = maxChars - note(text.length).length;
  const head = Math.max(0, Math.floor(room * 0.6));
  const tail = Math.max(0, room - head);
  const dropped = text.length - head - tail;
  return { text: text.slice(0, head) + note(dropped) + text.slice(text.length - tail), truncated: true };
}

/** A note for bytes a stream produced beyond what we kept. */
export function droppedNote(bytes: number, stream: string): string {
  return bytes > 0 ? `\n[… ${bytes} more bytes of ${stream} were not kept …]` : '';
}

/** The program's own output during a debugger step, labelled and bounded, or '' when there was none. */
export function programOutput(stdout: string, stderr: string, dropped: { stdout: number; stderr: number }): string {
  const parts: string[] = [];
  for (const [name, text, lost] of [
    ['stdout', stdout, dropped.stdout],
    ['stderr', stderr, dropped.stderr],
  ] as const) {
    if (!text && !lost) continue;
    parts.push(`[program ${name}]\n${bound(text.trimEnd(), PROGRAM_OUTPUT_MAX_CHARS, `program ${name}`).text}${droppedNote(lost, name)}`);
  }
  return parts.join('\n');
}

/** `n: text` lines, numbered from `first`. */
export function numberLines(lines: string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((l, i) => `${String(first + i).padStart(width)}: ${l}`).join('\n');
}
