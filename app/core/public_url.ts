import app from '@adonisjs/core/services/app'

/**
 * PUBLIC_URL (config/app.ts `publicUrl`) joined with a path: the one reader
 * of the service's public base URL, for resource URLs, links and the
 * Sign-In-With-Stacks domain. Read per call, so a test may change it.
 */
export function publicUrl(path = ''): string {
  return `${app.config.get<string>('app.publicUrl')}${path}`
}
