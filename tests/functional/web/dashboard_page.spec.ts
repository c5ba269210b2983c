import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import { sources as driverFactories } from '#feeds/define_config'
import sources from '#feeds/services/main'
import type { DashboardProps, SiteContext } from '#web/page_context'
import { WithdrawalsConfig } from '#withdrawals/define_config'
import {
  FIXED_DOCUMENT_DECLARATION,
  FixedDocumentDriver,
} from '#tests/support/fixed_document_driver'

/** Undoes Edge's escaping of an attribute's or a script's text. */
function unescaped(text: string) {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
}

/** The dashboard island's props and the site context, as the page hands them to the scripts. */
async function dashboardData(client: ApiClient) {
  const page = await client.get('/dashboard/register').header('accept', 'text/html')
  page.assertStatus(200)
  const html = page.text()
  const props = html.match(/data-island="dashboard" data-props="([^"]*)"/)![1]
  const site = html.match(/<script type="application\/json" id="site-context">(.*?)<\/script>/s)![1]
  return {
    props: JSON.parse(unescaped(props)) as DashboardProps,
    site: JSON.parse(site) as SiteContext,
  }
}

test.group('The dashboard page hands the pages what the server knows', (group) => {
  group.each.setup(() => () => sources.restore())

  test('the source choices and their fields, from the drivers declarations', async ({
    client,
    assert,
  }) => {
    const { props } = await dashboardData(client)

    assert.deepEqual(
      props.sources.map(({ type, mode, delivery }) => [type, mode, delivery]),
      [
        ['partner_bridge', 'partner_bridge', 'fetched'],
        ['codehost_raw', 'hosted_mirror', 'polled'],
        ['objectstore_url', 'hosted_mirror', 'polled'],
        ['webhook_push', 'hosted_mirror', 'pushed'],
        ['manual_upload', 'hosted_mirror', 'uploaded'],
      ]
    )
    const polled = props.sources.find((source) => source.type === 'codehost_raw')!
    assert.equal(polled.label, 'A JSON file in a code repository')
    assert.deepEqual(
      polled.fields.map((field) => [field.name, field.kind, field.required ?? false]),
      [
        ['url', 'url', true],
        ['poll_interval_seconds', 'choice', false],
      ]
    )
    assert.deepEqual(polled.fields[1].choices, [
      { value: 60, label: 'every minute' },
      { value: 300, label: 'every 5 minutes' },
      { value: 900, label: 'every 15 minutes' },
      { value: 3600, label: 'every hour' },
    ])
    assert.deepEqual(
      props.sources[0].fields.map((field) => field.name),
      ['source_path']
    )
  })

  test('a driver registered at run time is offered with its fields, no page changed', async ({
    client,
    assert,
  }) => {
    sources.fake(
      'test_plugin',
      driverFactories.custom(FIXED_DOCUMENT_DECLARATION, () => new FixedDocumentDriver())
    )

    const { props } = await dashboardData(client)

    assert.deepEqual(props.sources.at(-1), {
      type: 'test_plugin',
      mode: 'hosted_mirror',
      delivery: 'fetched',
      label: 'A fixed document',
      description: FIXED_DOCUMENT_DECLARATION.description!,
      fields: FIXED_DOCUMENT_DECLARATION.fields!,
    })
  })

  test('the forms limits are the configured ones', async ({ client, assert }) => {
    const withdrawals = await app.container.make(WithdrawalsConfig)

    const { site } = await dashboardData(client)

    assert.deepEqual(site.limits, {
      withdrawal: {
        minimumMicrostx: Number(withdrawals.minimumMicrostx),
        maximumMicrostx: Number(withdrawals.maximumMicrostx),
        historyMax: withdrawals.list.maxLimit,
      },
      price: { minimumMicrostx: 100, maximumMicrostx: 10_000_000 },
      text: { displayName: 80, description: 280, slug: 64 },
    })
  })
})
