import { test } from '@japa/runner'
import { newOwner, registerProvider } from '#tests/support/providers'
import { eventually, useBrowser } from '#tests/support/browser'

test.group('The marketplace home', (group) => {
  const { session } = useBrowser(group)

  test('searches by name and filters by category, built-in and provider feeds alike', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    await registerProvider(client, owner.token, {
      handle: 'acme-data',
      display_name: 'Acme Data',
      feed: {
        slug: 'btc-spot',
        display_name: 'BTC spot price',
        price_stx: '0.02',
        source_path: '/v1/prices',
      },
    })
    const { page } = session
    await page.goto(session.url('/'))
    const cards = page.locator('[data-feed-card]:visible')
    const titles = () => cards.locator('h3').allInnerTexts()
    assert.lengthOf(await titles(), 17)

    await page.getByLabel('Search feeds by name').fill('whale')
    await eventually(async () => assert.deepEqual(await titles(), ['Whale Alerts']))
    assert.include(page.url(), '?q=whale')

    await page.getByLabel('Search feeds by name').fill('')
    await page.getByRole('button', { name: /^social/ }).click()
    await eventually(async () => assert.deepEqual(await titles(), ['BTC Sentiment']))

    // A chip is a button: the keyboard reaches and presses it.
    await page.getByRole('button', { name: /^From providers/ }).focus()
    await page.keyboard.press('Enter')
    await eventually(async () => assert.deepEqual(await titles(), ['BTC spot price']))
    assert.include(await cards.first().innerText(), 'by Acme Data')

    await page.getByLabel('Search feeds by name').fill('no such thing')
    await page.getByText('No feed matches your search.').waitFor()
    assert.lengthOf(await titles(), 0)

    // The filter is in the address: a shared link opens filtered.
    await page.goto(session.url('/?category=derivatives'))
    await eventually(async () => assert.deepEqual(await titles(), ['Liquidation Alerts']))
  })
})
