import { readFile, rm, writeFile } from 'node:fs/promises'
import { DevnetStateError } from './state_error.js'

/**
 * One devnet per state file: `<file>.lock` holds the pid of the process whose
 * devnet uses it (two would overwrite each other's chain). A lock left by a
 * process that is gone (killed, crashed) is taken over.
 */
export async function lockStateFile(path: string): Promise<() => Promise<void>> {
  const lock = lockPath(path)
  if (!(await tryCreate(lock))) {
    const holder = await stateFileHolder(path)
    if (holder !== null) throw inUse(path, holder)
    await rm(lock, { force: true })
    if (!(await tryCreate(lock))) throw inUse(path, await stateFileHolder(path))
  }
  return () => rm(lock, { force: true })
}

/** The pid of the live process whose devnet uses the state file, or null. */
export async function stateFileHolder(path: string): Promise<number | null> {
  let text: string
  try {
    text = await readFile(lockPath(path), 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const pid = Number(text.trim())
  return Number.isSafeInteger(pid) && pid > 0 && isAlive(pid) ? pid : null
}

function lockPath(path: string): string {
  return `${path}.lock`
}

async function tryCreate(lock: string): Promise<boolean> {
  try {
    await writeFile(lock, `${process.pid}\n`, { flag: 'wx' })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

function inUse(path: string, pid: number | null): DevnetStateError {
  return new DevnetStateError(
    path,
    `in use by ${pid === process.pid ? 'another devnet of this process' : `process ${pid ?? '(unknown)'}`}: one devnet per state file`
  )
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
