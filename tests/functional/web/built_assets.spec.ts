import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'

test.group('Built page bundles', () => {
  test('are served from public/assets, cacheable for good; nothing else in public/ is', async ({
    client,
    assert,
  }) => {
    const name = `bundle-${randomUUID()}.js`
    await mkdir(app.publicPath('assets'), { recursive: true })
    await writeFile(app.publicPath('assets', name), 'export default 42\n')
    await writeFile(app.publicPath(name), 'export default 43\n')
    try {
      const bundle = await client.get(`/assets/${name}`)
      const outside = await client.get(`/${name}`)

      bundle.assertStatus(200)
      assert.equal(bundle.text(), 'export default 42\n')
      assert.include(bundle.header('cache-control'), 'immutable')
      outside.assertStatus(404)
    } finally {
      await rm(app.publicPath('assets', name), { force: true })
      await rm(app.publicPath(name), { force: true })
    }
  })
})
