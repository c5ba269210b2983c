import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** One call of the CLI whose payment may have moved money, as its ledger file keeps it. */
export interface LedgerEntry {
  at: string
  network: string
  baseUrl: string
  feed: string
  payer: string
  /** The transfer sent (`0x…`); `null` when the error that ended the call named none. */
  txid: string | null
  priceMicrostx: string
  /**
   * `paid`: the service took the payment; `pending`: taken, still settling when the CLI stopped
   * (collect it with the receipt); `unknown`: sent, and whether it moved the money is not known
   * (the service became unreachable or failed after it).
   */
  status: 'paid' | 'pending' | 'unknown'
  /** The error code the call ended with when it ended without data (paid_without_data, refused, unreachable). */
  error?: string
}

/**
 * The directory the CLI keeps its state in: TOLLBOOTH_STATE, else
 * $XDG_STATE_HOME/tollbooth, else ~/.local/state/tollbooth.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  if (env.TOLLBOOTH_STATE) return env.TOLLBOOTH_STATE
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tollbooth')
}

function ledgerFile(dir: string) {
  return join(dir, 'spent.jsonl')
}

/**
 * Appends one line: a single O_APPEND write, so concurrent CLI runs never
 * lose or interleave each other's entries and a crash leaves whole lines.
 */
export async function record(dir: string, entry: LedgerEntry): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await appendFile(ledgerFile(dir), `${JSON.stringify(entry)}\n`, { mode: 0o600 })
}

/** Every entry recorded so far (none when the file does not exist); a torn line is skipped. */
export async function entries(dir: string): Promise<LedgerEntry[]> {
  const text = await readFile(ledgerFile(dir), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''
    throw error
  })
  const lines: LedgerEntry[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const entry = JSON.parse(line) as LedgerEntry
      if (/^\d+$/.test(String(entry.priceMicrostx))) lines.push(entry)
    } catch {
      continue
    }
  }
  return lines
}

export function total(list: LedgerEntry[]): bigint {
  return list.reduce((sum, entry) => sum + BigInt(entry.priceMicrostx), 0n)
}
