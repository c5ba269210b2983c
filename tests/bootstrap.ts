import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import type { Config } from '@japa/runner/types'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import testUtils from '@adonisjs/core/services/test_utils'
import vite from '@adonisjs/vite/services/main'
import { AppConfig } from '#core/app_config'
import { createHttpServer } from '#core/malformed_requests'
import { refuseSecretsInRunLog } from '#tests/support/run_log'

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * One database per run: the embedded provider gave this run a throw-away
 * cluster (or DATABASE_URL names one); migrations run up once here and are
 * rolled back at the end. Groups truncate tables between tests.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [stopWatchingFiles, () => testUtils.db().migrate()],
  teardown: [],
}

/**
 * The Vite dev server (started for the test environment by @adonisjs/vite's
 * provider, before this file is read) still serves the pages, but no test
 * edits a source file, and its watcher would follow every write under the
 * checkout: the run's PostgreSQL cluster in tmp/ writes all the time, and
 * each write costs the test process `lstat`s (about 6 % of a simulation's
 * CPU).
 */
async function stopWatchingFiles() {
  await vite.getDevServer()?.watcher.close()
}

/** Run after the app has terminated, so its last log lines are scanned too. */
export const afterTerminate = [refuseSecretsInRunLog]

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['functional', 'simulation', 'browser', 'bench'].includes(suite.name)) {
    return suite.setup(async () => {
      const { requestLimits } = await app.container.make(AppConfig)
      return testUtils.httpServer().start((handler) => createHttpServer(handler, requestLimits))
    })
  }
}
