/** Reading and writing the committed JSON files under tasks/ (manifest, calibration): validated on the way in,
 * written whole through a rename on the way out, so a reader never sees half a file. */
import * as fs from 'node:fs';
import { z } from 'zod';

export class TaskDataError extends Error {}

/** The parsed file, or null when it does not exist. Bad JSON or a schema mismatch is an error naming the file. */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): z.infer<S> | null {
  if (!fs.existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TaskDataError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new TaskDataError(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function writeJsonFile(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
