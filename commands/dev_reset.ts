import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { displayPath as show } from '#core/display_path'
import { runningPostgres } from '#core/running_postgres'

interface Target {
  what: string
  path: string
  remove: () => Promise<void>
}

/**
 * `node ace dev:reset`: development starts over with a new devnet chain and
 * an empty database, deleted together. One without the other leaves payments
 * in the database naming txids the new chain hands out again (its nonces
 * start over), answered `payment_already_used`. It boots nothing (booting
 * would start the embedded database it deletes) and refuses while either is
 * in use.
 */
export default class DevReset extends BaseCommand {
  static commandName = 'dev:reset'
  static description =
    'Delete the development devnet chain and embedded database (tmp/) together, so npm run dev starts anew'

  static options: CommandOptions = { startApp: false }

  @flags.boolean({ description: 'Delete without asking for confirmation' })
  declare force?: boolean

  async run() {
    // The app is not booted (that would start the database this deletes), so the environment
    // comes from start/env, which the config files below read too.
    const { default: env } = await import('#start/env')
    if (env.get('NODE_ENV') === 'production') {
      return this.#fail('dev:reset deletes development state: not with NODE_ENV=production')
    }
    const { default: chain } = await import('#config/chain')
    const { default: database } = await import('#config/embedded_postgres')
    // Development tooling: not installed in a production build.
    const { removeDevnetState, stateFileHolder } = await import('@tollbooth/devnet')

    const statePath = chain.devnet.statePath
    const inUse = async () => {
      const holder = await stateFileHolder(statePath)
      const postgres = database.enabled ? await runningPostgres(database.dataDir) : undefined
      if (holder !== null) {
        this.logger.error(`the devnet chain ${show(statePath)} is in use by process ${holder}`)
      }
      if (postgres) {
        this.logger.error(
          `the development database ${show(database.dataDir)} is running (process ${postgres.pid}, port ${postgres.port})`
        )
      }
      return holder !== null || postgres !== undefined
    }
    if (await inUse()) {
      return this.#fail('stop `npm run dev` (and any `node ace` command on them) first')
    }

    const targets: Target[] = [
      {
        what: 'devnet chain',
        path: statePath,
        remove: async () => {
          await removeDevnetState(statePath)
        },
      },
    ]
    if (database.enabled) {
      targets.push({
        what: 'development database',
        path: database.dataDir,
        remove: () => rm(database.dataDir, { recursive: true, force: true }),
      })
    } else {
      this.logger.warning(
        `DATABASE_URL is set: dev:reset does not touch that database (${new URL(env.get('DATABASE_URL')!).host}); reset it too (e.g. \`node ace migration:fresh\`), or its payments name txids the new chain hands out again and its withdrawals hold platform nonces the new chain starts over`
      )
    }

    const present = targets.filter((target) => existsSync(target.path))
    if (present.length === 0) {
      this.logger.info(
        `nothing to reset: no ${targets.map((target) => `${target.what} at ${show(target.path)}`).join(', no ')}`
      )
      return
    }
    for (const target of present) {
      this.logger.info(`to delete: ${show(target.path)} (${target.what})`)
    }
    if (!this.force) {
      if (!process.stdin.isTTY) {
        return this.#fail(
          'cannot ask for confirmation (not a terminal): add --force to delete them'
        )
      }
      if (!(await this.prompt.confirm('Delete them?'))) {
        this.logger.info('nothing deleted')
        return
      }
      if (await inUse()) return this.#fail('nothing deleted: they came into use meanwhile')
    }

    for (const target of present) {
      await target.remove()
      this.logger.success(`removed ${show(target.path)} (${target.what})`)
    }
    this.logger.info(
      database.enabled
        ? 'the next `npm run dev` starts a new chain and an empty database'
        : 'the next `npm run dev` starts a new chain'
    )
  }

  #fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
