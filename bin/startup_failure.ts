/**
 * An invalid configuration is an operator's mistake, not a crash: print one
 * line naming every bad variable instead of a stack trace.
 */
export function printStartupFailure(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error) || error.code !== 'E_INVALID_ENV_VARIABLES') {
    return false
  }
  const help = 'help' in error && typeof error.help === 'string' ? error.help : ''
  const problems = help
    .split('\n')
    .map((line) => line.replace(/^-\s*/, '').trim())
    .filter(Boolean)
  console.error(`Tollbooth cannot start, invalid configuration: ${problems.join('; ')}`)
  return true
}
