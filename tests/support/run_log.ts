import { rm } from 'node:fs/promises'
import { scanLogFile } from '#tests/support/log_secrets'

/** The file this test run logs to (set by bin/test.ts), or undefined. */
export function runLogFile() {
  return process.env.LOG_FILE
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
