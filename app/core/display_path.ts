import { isAbsolute, relative } from 'node:path'

/** A path as a developer reads it: relative to the working directory when under it, else absolute. */
export function displayPath(path: string): string {
  const under = relative(process.cwd(), path)
  return under && !under.startsWith('..') && !isAbsolute(under) ? under : path
}
