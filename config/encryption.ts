import env from '#start/env'
import { defineConfig, drivers } from '@adonisjs/core/encryption'

/**
 * Encrypts secrets at rest (Partner Bridge signing keys, push secrets) with
 * a key derived from APP_KEY.
 */
export default defineConfig({
  default: 'gcm',
  list: {
    gcm: drivers.aes256gcm({
      id: 'gcm',
      keys: [env.get('APP_KEY')!],
    }),
  },
})
