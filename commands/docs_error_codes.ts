import { readFile, writeFile } from 'node:fs/promises'
import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { withCurrentErrorTable } from '#core/error_codes'

/** `node ace docs:error-codes`: rewrites docs/api.md's error table from app/core/error_codes.ts. */
export default class DocsErrorCodes extends BaseCommand {
  static commandName = 'docs:error-codes'
  static description = "Regenerate docs/api.md's error-code table from app/core/error_codes.ts"

  static options: CommandOptions = { startApp: false }

  async run() {
    const path = this.app.makePath('docs/api.md')
    const current = await readFile(path, 'utf8')
    const updated = withCurrentErrorTable(current)
    if (updated === current) {
      this.logger.info('docs/api.md is up to date')
      return
    }
    await writeFile(path, updated)
    this.logger.success('docs/api.md: error table regenerated')
  }
}
