import { readFile } from 'node:fs/promises'

/**
 * The PostgreSQL server running on a data directory, from its postmaster.pid:
 * the server's pid on the first line, its port on the fourth. No file, or a
 * stale one (dead pid), means none is running.
 */
export async function runningPostgres(
  dataDir: string
): Promise<{ pid: number; port: number } | undefined> {
  let pidFile: string
  try {
    pidFile = await readFile(`${dataDir}/postmaster.pid`, 'utf8')
  } catch {
    return undefined
  }
  const lines = pidFile.split('\n')
  const pid = Number(lines[0])
  const port = Number(lines[3])
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined
  return { pid, port }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
