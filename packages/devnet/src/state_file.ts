import { existsSync } from 'node:fs'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { ChainSnapshot } from './chain_state.js'
import { DevnetStateError } from './state_error.js'
import { lockStateFile } from './state_lock.js'
import { decodeState, encodeState } from './state_format.js'

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * The file a devnet keeps its chain in across restarts. Each save rewrites
 * the whole chain to `<file>.tmp`, flushes it to disk and renames it over the
 * file, so the file is always one complete chain, the old or the new.
 */
export class StateFile {
  readonly path: string
  /** The chain the file held when opened; null when there was none yet. */
  readonly saved: ChainSnapshot | null
  readonly #unlock: () => Promise<void>
  #source: (() => ChainSnapshot) | null = null
  #waiters: Waiter[] = []
  #draining = false
  #closed = false

  private constructor(path: string, saved: ChainSnapshot | null, unlock: () => Promise<void>) {
    this.path = path
    this.saved = saved
    this.#unlock = unlock
  }

  /** Locks the file for this devnet and reads the chain saved in it, if any. */
  static async open(path: string): Promise<StateFile> {
    await mkdir(dirname(path), { recursive: true })
    const unlock = await lockStateFile(path)
    try {
      return new StateFile(path, await readSaved(path), unlock)
    } catch (error) {
      await unlock()
      throw error
    }
  }

  /** What each save writes: the live chain. */
  track(snapshot: () => ChainSnapshot): void {
    this.#source = snapshot
  }

  /**
   * Resolves once the chain as it is now is on disk. Calls made while a
   * write is under way share the next one.
   */
  save(): Promise<void> {
    if (this.#closed)
      return Promise.reject(new Error(`${this.path} is closed: the devnet is stopped`))
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject })
      if (!this.#draining) void this.#drain()
    })
  }

  /** A last save, then the file is released for another devnet. */
  async close(): Promise<void> {
    try {
      await this.save()
    } finally {
      this.#closed = true
      await this.#unlock()
    }
  }

  async #drain(): Promise<void> {
    this.#draining = true
    while (this.#waiters.length > 0) {
      const batch = this.#waiters.splice(0)
      try {
        if (!this.#source) throw new Error('StateFile.track() was not called')
        await this.#write(encodeState(this.#source()))
        for (const waiter of batch) waiter.resolve()
      } catch (error) {
        for (const waiter of batch) waiter.reject(error)
      }
    }
    this.#draining = false
  }

  async #write(text: string): Promise<void> {
    const temp = `${this.path}.tmp`
    const file = await open(temp, 'w')
    try {
      await file.writeFile(text)
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, this.path)
  }
}

/**
 * Deletes the chain kept in `path` (and a temp file a crash left behind), so
 * the next devnet on it starts a new chain. Refuses while a devnet uses it.
 * Returns the files it removed.
 */
export async function removeDevnetState(path: string): Promise<string[]> {
  if (!existsSync(dirname(path))) return []
  const unlock = await lockStateFile(path)
  try {
    const removed: string[] = []
    for (const file of [path, `${path}.tmp`]) {
      if (!existsSync(file)) continue
      await rm(file)
      removed.push(file)
    }
    return removed
  } finally {
    await unlock()
  }
}

async function readSaved(path: string): Promise<ChainSnapshot | null> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new DevnetStateError(path, `cannot read it (${messageOf(error)})`)
  }
  try {
    return decodeState(text)
  } catch (error) {
    throw new DevnetStateError(
      path,
      `${messageOf(error)}. Nothing was changed: move or delete the file to start a new chain`
    )
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
