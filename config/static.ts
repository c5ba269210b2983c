import { defineConfig } from '@adonisjs/static'

/** Serves public/ (the built page bundles under /assets); hashed names make them cacheable. */
export default defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  immutable: true,
  maxAge: '1y',
})
