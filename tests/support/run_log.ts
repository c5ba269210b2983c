import { readFile, rm } from 'node:fs/promises'
import { scanLogFile } from '#tests/support/log_secrets'

/** The file this test run logs to (set by bin/test.ts), or undefined. */
export function runLogFile() {
  return process.env.LOG_FILE
}

/** What the run has logged so far (nothing yet: empty): mark a point for logLinesSince. */
export function runLogSoFar() {
  return readFile(runLogFile()!, 'utf8').catch(() => '')
}

/** The log lines written after `before` (runLogSoFar), parsed: the run logs at debug level. */
export async function logLinesSince(before: string) {
  const all = await readFile(runLogFile()!, 'utf8')
  return all
    .slice(before.length)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/**
 * Fails the run when its log holds a secret, naming each line and kind; a
 * clean log is removed. Runs once, after every suite.
 */
export async function refuseSecretsInRunLog() {
  const file = runLogFile()
  if (!file) return
  const { lines, findings } = await scanLogFile(file)
  if (findings.length === 0) {
    if (file.includes('/tmp/test-logs/')) await rm(file, { force: true })
    return
  }
  const report = findings.map(({ line, kind, excerpt }) => `  line ${line}: ${kind} ${excerpt}`)
  throw new Error(
    `The test run logged secrets (${findings.length} in ${lines} lines of ${file}):\n${report.join('\n')}`
  )
}
