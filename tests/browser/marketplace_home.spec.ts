import { test } from '@japa/runner'
import type { Page } from 'playwright-core'
import { createFeeds } from '#tests/support/feeds'
import { createProviderRow, newOwner, registerProvider } from '#tests/support/providers'
import { DESKTOP, eventually, PHONE, useBrowser } from '#tests/support/browser'

/** The titles of the feed cards the page shows. */
const titlesOn = (page: Page) => page.locator('[data-feed-card] h3').allInnerTexts()

const two = (n: number) => String(n).padStart(2, '0')

/** "Signal 01" … "Signal 09" */
const signals = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `Signal ${two(from + i)}`)

/** Nothing wider than the window: no sideways scrolling. */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth')

test.group('The marketplace home', (group) => {
  const { session } = useBrowser(group)

  test('searches by name and filters by category on the server, kept in the address', async ({
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
    const titles = () => titlesOn(page)
    assert.lengthOf(await titles(), 17)

    // Typing searches as you go: the server's results replace the cards.
    await page.getByLabel('Search feeds by name, description or provider').fill('whale')
    await eventually(async () => assert.deepEqual(await titles(), ['Whale Alerts']))
    assert.include(page.url(), '?q=whale')

    await page.getByLabel('Search feeds by name, description or provider').fill('')
    await eventually(async () => assert.lengthOf(await titles(), 17))
    await page.getByRole('link', { name: /^social/ }).click()
    await eventually(async () => assert.deepEqual(await titles(), ['BTC Sentiment']))
    assert.include(page.url(), '?category=social')

    // A category is a link: the keyboard reaches and follows it.
    await page.getByRole('link', { name: /^From providers/ }).focus()
    await page.keyboard.press('Enter')
    await eventually(async () => assert.deepEqual(await titles(), ['BTC spot price']))
    assert.include(await page.locator('[data-feed-card]').first().innerText(), 'by Acme Data')

    await page.getByLabel('Search feeds by name, description or provider').fill('no such thing')
    await page.getByText('No feed matches your search.').first().waitFor()
    assert.lengthOf(await titles(), 0)
    assert.include(page.url(), 'category=provider')
    assert.include(page.url(), 'q=no+such+thing')

    // The view is in the address: a reload or a shared link opens it again.
    await page.goto(session.url('/?category=derivatives'))
    assert.deepEqual(await titles(), ['Liquidation Alerts'])
  })

  test('pages through 60 provider feeds, with and without JavaScript, at desktop and phone width', async ({
    assert,
  }) => {
    const provider = await createProviderRow('many-feeds')
    await createFeeds(provider.id, 60, (n) => ({
      slug: `signal-${two(n)}`,
      displayName: `Signal ${two(n)}`,
    }))
    const { page } = session
    await page.goto(session.url('/?category=provider'))
    const titles = () => titlesOn(page)
    const firstTitle = () => page.locator('[data-feed-card] h3').first().innerText()
    assert.lengthOf(await titles(), 24)
    assert.equal(await firstTitle(), 'Signal 01')

    await page
      .getByRole('navigation', { name: 'Feed pages' })
      .getByRole('link', { name: 'Next' })
      .click()
    await eventually(async () => assert.equal(await firstTitle(), 'Signal 25'))
    assert.include(page.url(), '?category=provider&page=2')
    await page.goBack()
    await eventually(async () => assert.equal(await firstTitle(), 'Signal 01'))

    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport)
      assert.isFalse(await scrollsSideways(page), `${viewport.width} px`)
    }
    await page.setViewportSize(DESKTOP)

    // Without JavaScript the form submits and the links navigate, to the same views.
    session.problems.tolerate((problem) => problem.text.includes('net::ERR_FAILED'))
    await page.route('**/*', (route) =>
      route.request().resourceType() === 'script' ? route.abort() : route.continue()
    )
    await page.goto(session.url('/?category=provider'))
    await page.getByRole('link', { name: 'Page 3' }).click()
    await page.waitForURL(/page=3/)
    assert.deepEqual(await titles(), signals(49, 60))
    await page.getByLabel('Search feeds by name, description or provider').fill('signal-0')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.waitForURL(/q=signal-0/)
    assert.deepEqual(await titles(), signals(1, 9))
    assert.include(page.url(), 'category=provider')
  })
})
