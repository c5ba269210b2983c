import { AppConfig } from '#core/app_config'
import { bootedConfig } from '#core/injectable_config'

const appConfig = bootedConfig(AppConfig)

/**
 * PUBLIC_URL (config/app.ts `publicUrl`) joined with a path: the one reader
 * of the service's public base URL, for resource URLs, links and the
 * Sign-In-With-Stacks domain. Read per call, so a test may change it.
 */
export function publicUrl(path = ''): string {
  return `${appConfig().publicUrl}${path}`
}
