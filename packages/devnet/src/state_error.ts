/** A state file the devnet cannot use: unreadable, from another format version, or in use. */
export class DevnetStateError extends Error {
  readonly path: string

  constructor(path: string, problem: string) {
    super(`Cannot use the devnet state file ${path}: ${problem}`)
    this.name = 'DevnetStateError'
    this.path = path
  }
}
