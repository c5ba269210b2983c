import { readdirSync, readFileSync } from 'node:fs'

/** Kernel clock ticks per second, the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100

interface ProcStat {
  ppid: number
  /** utime + stime of the process itself, ms. */
  ownMs: number
  /** cutime + cstime: its children it has waited for, ms. */
  reapedMs: number
}

function procStat(pid: number): ProcStat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name is in parentheses and may contain spaces: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const tick = (index: number) => (Number(fields[index]) * 1_000) / TICKS_PER_SECOND
  // fields[0] is field 3 (state): ppid is field 4, utime..cstime fields 14–17.
  return { ppid: Number(fields[1]), ownMs: tick(11) + tick(12), reapedMs: tick(13) + tick(14) }
}

/** CPU ms one process has used so far, from its own accounting. */
export function processCpuMs(pid: number) {
  return procStat(pid)?.ownMs ?? 0
}

/**
 * CPU ms a PostgreSQL cluster has used so far: the postmaster, every live
 * child (backends, walwriter, checkpointer…) and the children that exited
 * (the postmaster's cutime/cstime), so a backend closed mid-run still counts.
 */
export function clusterCpuMs(postmasterPid: number) {
  const postmaster = procStat(postmasterPid)
  if (!postmaster) throw new Error(`no process ${postmasterPid}`)
  let total = postmaster.ownMs + postmaster.reapedMs
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const child = procStat(Number(entry))
    if (child?.ppid === postmasterPid) total += child.ownMs
  }
  return total
}

/** The postmaster of the server a backend runs in. */
export function postmasterOf(backendPid: number) {
  const backend = procStat(backendPid)
  if (!backend) throw new Error(`no process ${backendPid}`)
  return backend.ppid
}
