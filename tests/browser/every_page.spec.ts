import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import axe from 'axe-core'
import type { Page } from 'playwright-core'
import { randomPrivateKey } from '@stacks/transactions'
import { topUp } from '#tests/support/credit'
import { createFeeds } from '#tests/support/feeds'
import { startLocalSite, useLocalSiteClient } from '#tests/support/local_site'
import { mirrorRegistration, registerProvider } from '#tests/support/providers'
import { recordPaidCalls } from '#tests/support/query_log'
import { walletOf } from '#tests/support/sign_in'
import { providerWithRevenue } from '#tests/support/withdrawals'
import {
  DESKTOP,
  PHONE,
  type PageProblems,
  rememberWalletChoice,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

/**
 * One visit: the route (as app/web/routes.ts declares it), the address, and a
 * text the page shows once its islands have rendered their data (so the
 * checks see the page a person sees, not a loading state).
 */
interface Visit {
  route: string
  path: string
  shows: string | RegExp
  /** Visited after signing in as the owner of acme-data (`:id`) and mirror-co (`:mirror`). */
  signedIn?: true
  status?: number
  /** What a person does on the page first (a wizard's later step). */
  reach?: (page: Page) => Promise<void>
  /** A scrolling box that shows all it holds at phone width too, without scrolling. */
  whole?: string
}

const OWNER = '/dashboard/p/:id'
const LONG_AGENT_NAME = 'an-agent-with-a-rather-long-name'

/** Every page: signed out, then signed in. */
const PAGES: Visit[] = [
  { route: '/', path: '/', shows: 'Whale Alerts' },
  { route: '/', path: '/?page=2', shows: 'Showing feeds 25–' },
  { route: '/market/feeds/:id', path: '/market/feeds/whale-alerts', shows: 'Recent purchases' },
  {
    route: '/market/feeds/p/:handle/:slug',
    path: '/market/feeds/p/acme-data/btc-price',
    shows: 'Recent purchases',
  },
  {
    route: '/market/feeds/p/:handle/:slug',
    path: '/market/feeds/p/mirror-co/rates',
    shows: 'Recent purchases',
  },
  { route: '/market/providers', path: '/market/providers', shows: 'Mirror Co' },
  {
    route: '/market/providers/:handle',
    path: '/market/providers/acme-data',
    shows: 'BTC price',
    // The badge's checks opened: they name the manifest's address, the longest words here.
    reach: (page) => page.locator('.badge-details summary').click(),
  },
  { route: '/market/providers/:handle', path: '/market/providers/mirror-co', shows: 'Rates' },
  {
    route: '/market/feeds/p/:handle/:slug',
    path: '/market/feeds/p/mirror-co/fx-later',
    shows: 'No data yet',
  },
  {
    route: '/market/providers/:handle/verification',
    path: '/market/providers/acme-data/verification',
    shows: 'not verified',
  },
  {
    route: '/market/leaderboard',
    path: '/market/leaderboard',
    shows: LONG_AGENT_NAME,
    // Spent, the column it ranks by, is in sight on a phone.
    whole: '.table-wrap',
  },
  { route: '/market/activity', path: '/market/activity', shows: LONG_AGENT_NAME },
  { route: '/dashboard', path: '/dashboard', shows: 'Connect wallet and sign in' },
  { route: '/docs/api', path: '/docs/api', shows: 'push-secret/rotate' },
  { route: '/credit', path: '/credit', shows: 'Connect wallet and sign in' },
  {
    route: '/dashboard/register',
    path: '/dashboard/register',
    shows: 'Connect wallet and sign in',
  },
  { route: '(none)', path: '/market/no-such-page', shows: 'Page not found', status: 404 },
  {
    route: '/market/providers/:handle',
    path: '/market/providers/no-such-provider',
    shows: 'Page not found',
    status: 404,
  },
  { signedIn: true, route: '/dashboard', path: '/dashboard', shows: 'Mirror Co' },
  // The owner's wallet holds credit: a top-up in its statement and the refund form.
  { signedIn: true, route: '/credit', path: '/credit', shows: 'Sign and refund' },
  {
    signedIn: true,
    route: '/dashboard/register',
    path: '/dashboard/register',
    shows: 'How will buyers get',
  },
  {
    signedIn: true,
    route: '/dashboard/register',
    path: '/dashboard/register',
    shows: 'Path on your API',
    async reach(page) {
      await page.getByLabel(/Partner Bridge: you run an API/).check()
      await page.getByRole('button', { name: 'Continue' }).click()
      await page.getByLabel('Handle').fill('new-co')
      await page.getByText('“new-co” is available').waitFor()
      await page.getByLabel('Display name').fill('New Co')
      await page.getByLabel("Your API's address").fill('https://api.new-co.example')
      await page.getByRole('button', { name: 'Continue' }).click()
    },
  },
  { signedIn: true, route: OWNER, path: OWNER, shows: 'Unique buyers, 7 days' },
  { signedIn: true, route: `${OWNER}/new-feed`, path: `${OWNER}/new-feed`, shows: 'Feed address' },
  {
    signedIn: true,
    route: `${OWNER}/feeds/:slug`,
    path: `${OWNER}/feeds/btc-price`,
    shows: 'Response shape',
  },
  {
    signedIn: true,
    route: `${OWNER}/payouts`,
    path: `${OWNER}/payouts`,
    shows: 'Review withdrawal',
  },
  {
    signedIn: true,
    route: `${OWNER}/integration`,
    path: `${OWNER}/integration`,
    shows: 'Handshake test',
  },
  { signedIn: true, route: `${OWNER}/profile`, path: `${OWNER}/profile`, shows: 'Verified badge' },
  {
    signedIn: true,
    route: `${OWNER}/feeds/:slug`,
    path: '/dashboard/p/:mirror/feeds/rates',
    shows: 'Upload',
  },
  {
    signedIn: true,
    route: `${OWNER}/integration`,
    path: '/dashboard/p/:mirror/integration',
    shows: 'How buyers get your data',
  },
]

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/**
 * Where the document is wider than the window: the outermost elements sticking
 * out; and the menus' links scrolled out of sight.
 */
// In-page code is written as source (the server's tsconfig has no DOM types), as in the other specs.
const OVERFLOWING_ELEMENTS = `(() => {
  const width = document.documentElement.clientWidth
  const name = (element) =>
    element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') +
    [...element.classList].map((c) => '.' + c).join('')
  const scrolls = (element) =>
    ['auto', 'scroll'].includes(getComputedStyle(element).overflowX)
  const inScroller = (element) => {
    for (let up = element.parentElement; up; up = up.parentElement) {
      if (scrolls(up) && up !== document.documentElement && up !== document.body) return true
    }
    return false
  }
  const sticksOut = (element) => element.getBoundingClientRect().right > width + 0.5
  const hiddenLinks = [...document.querySelectorAll('nav a')]
    .filter(sticksOut)
    .map((link) => 'the menu hides ' + link.textContent.trim() + ' off-screen')
  return [...document.body.querySelectorAll('*')]
    .filter((element) => sticksOut(element) && !inScroller(element))
    .filter((element) => !element.parentElement || !sticksOut(element.parentElement))
    .slice(0, 5)
    .map((element) => 'wider than the window: ' + name(element) +
      ' (right edge ' + element.getBoundingClientRect().right + ' px)')
    .concat(hiddenLinks)
})()`

/** Copy buttons that cover part of what they copy (the code under them). */
const COVERED_BY_COPY_BUTTONS = `[...document.querySelectorAll('[data-copy]')]
  .filter((button) => {
    const code = document.getElementById(button.dataset.copy)
    if (!code) return false
    const [a, b] = [button.getBoundingClientRect(), code.getBoundingClientRect()]
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
  })
  .map((button) => 'the Copy button covers #' + button.dataset.copy)`

/**
 * axe-core's serious and critical WCAG 2.1 A/AA violations, and any skipped
 * heading level (a best practice axe rates moderate): rule, impact, targets.
 */
async function accessibilityViolations(page: Page) {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') does not apply.
  await page.evaluate(axe.source)
  const { violations } = await page.evaluate<axe.AxeResults>(`axe.run(document, {
    runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} },
    rules: { 'heading-order': { enabled: true } },
    resultTypes: ['violations'],
  })`)
  return violations
    .filter(
      (violation) =>
        violation.impact === 'serious' ||
        violation.impact === 'critical' ||
        violation.id === 'heading-order'
    )
    .map(
      (violation) =>
        `axe ${violation.id} (${violation.impact}: ${violation.help}) at ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(', ')}`
    )
}

/** Visits `visit` at each width; what went wrong, one line each, named by address and width. */
async function check(page: Page, problems: PageProblems, visit: Visit, url: string) {
  const failures: string[] = []
  if (visit.status) problems.tolerate((problem) => problem.url === url)
  for (const viewport of [PHONE, DESKTOP]) {
    const where = `${visit.path}${visit.reach ? ` (${visit.shows})` : ''} at ${viewport.width} px`
    await page.setViewportSize(viewport)
    const response = await page.goto(url)
    if (response?.status() !== (visit.status ?? 200)) {
      failures.push(`${where}: answered ${response?.status()}`)
    }
    await visit.reach?.(page)
    await page
      .getByText(visit.shows)
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => failures.push(`${where}: never showed ${visit.shows}`))
    if (visit.whole) {
      const box = page.locator(visit.whole)
      const [inside, shown] = await box.evaluate((element) => [
        element.scrollWidth,
        element.clientWidth,
      ])
      if (inside > shown) failures.push(`${where}: ${visit.whole} cuts off ${inside - shown} px`)
    }
    for (const element of await page.evaluate<string[]>(OVERFLOWING_ELEMENTS)) {
      failures.push(`${where}: ${element}`)
    }
    for (const covered of await page.evaluate<string[]>(COVERED_BY_COPY_BUTTONS)) {
      failures.push(`${where}: ${covered}`)
    }
    for (const violation of await accessibilityViolations(page)) {
      failures.push(`${where}: ${violation}`)
    }
    for (const problem of problems.take()) failures.push(`${where}: ${problem.text}`)
  }
  return failures
}

test.group('Every page', (group) => {
  const { session, setWallet } = useBrowser(group)
  // The providers' website is a local one without a manifest: the verification report fetches
  // it from 127.0.0.1, never through the real DNS.
  let websiteOrigin = ''
  group.setup(async () => {
    const site = await startLocalSite((_request, response) => response.writeHead(404).end())
    const outbound = useLocalSiteClient()
    websiteOrigin = site.origin
    return async () => {
      outbound.restore()
      await site.close()
    }
  })

  test('fits a phone and a desktop, with no console error, failed request or serious axe violation', async ({
    client,
    assert,
  }) => {
    // Every page the app serves is in the table above.
    const pageRoutes = Object.values(router.toJSON())
      .flat()
      .filter((route) => route.name?.startsWith('web.') && route.methods.includes('GET'))
      .map((route) => route.pattern)
    const visited = new Set(PAGES.map((visit) => visit.route))
    assert.deepEqual(
      pageRoutes.filter((pattern) => !visited.has(pattern)),
      [],
      'pages the table misses'
    )

    const { owner, providerId } = await providerWithRevenue(client, 123_456_789_012n, {
      handle: 'acme-data',
    })
    await client
      .patch(`/providers/id/${providerId}`)
      .bearerToken(owner.token)
      .json({ website: websiteOrigin })
      .then((response) => response.assertStatus(200))
    const { provider: mirror } = await registerProvider(client, owner.token, {
      ...mirrorRegistration({ type: 'manual_upload' }, 'rates'),
      display_name: 'Mirror Co',
      website: websiteOrigin,
    })
    await client
      .post(`/providers/id/${mirror.id}/feeds/rates/upload`)
      .bearerToken(owner.token)
      .json({ EUR: 1.08, GBP: 1.27 })
      .then((response) => response.assertStatus(200))
    // An uploaded feed with nothing uploaded yet.
    await createFeeds(mirror.id, 1, () => ({ slug: 'fx-later', displayName: 'FX later' }))
    // Partner Bridge feeds, served live: enough for a second page of the marketplace.
    await createFeeds(providerId, 10, (n) => ({
      slug: `signal-${n}`,
      displayName: `Signal ${n}`,
      sourceType: 'partner_bridge',
      sourceSettings: { source_path: `/v1/signals/${n}` },
    }))
    // Large sums and long names: the widest the leaderboard and the figures get.
    await recordPaidCalls(
      [LONG_AGENT_NAME, 'market-maker-bot', 'gas-oracle'].map((agent, n) => ({
        feed: 'btc-price',
        payer: walletOf(randomPrivateKey()),
        price: 123_456_789_012n * BigInt(n + 1),
        ms: 40,
        agent,
      }))
    )

    await topUp(owner.walletAddress, 123_456_789n)

    setWallet([owner.key])
    const { page, problems } = session
    const address = (path: string) =>
      session.url(path.replace(':id', providerId).replace(':mirror', mirror.id))
    const failures: string[] = []
    for (const visit of PAGES.filter((row) => !row.signedIn)) {
      failures.push(...(await check(page, problems, visit, address(visit.path))))
    }
    await rememberWalletChoice(page)
    await page.goto(address('/dashboard'))
    await signInThroughPage(page, { picker: false })
    await page.getByText('Mirror Co').waitFor()
    for (const visit of PAGES.filter((row) => row.signedIn)) {
      failures.push(...(await check(page, problems, visit, address(visit.path))))
    }
    assert.deepEqual(failures, [])
  }).timeout(240_000)

  test('the focus ring stands out 3:1 from the page around it', async ({ assert }) => {
    const { page } = session
    await page.goto(session.url('/market/providers'))
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    // The ring is drawn around the element: on the nearest ancestor that paints a background.
    const [style, width, ring, background] = await page.evaluate<string[]>(`(() => {
      const focused = getComputedStyle(document.activeElement)
      const opaque = (colour) => colour.startsWith('rgb(') || /, 1\\)$/.test(colour)
      let around = 'rgb(255, 255, 255)'
      for (let up = document.activeElement.parentElement; up; up = up.parentElement) {
        const colour = getComputedStyle(up).backgroundColor
        if (opaque(colour)) { around = colour; break }
      }
      return [focused.outlineStyle, focused.outlineWidth, focused.outlineColor, around]
    })()`)
    assert.notEqual(style, 'none', 'the focused link has no outline')
    assert.isAtLeast(Number.parseFloat(width), 2, `a ${width} outline`)
    assert.isAtLeast(contrast(ring, background), 3, `${ring} on ${background}`)
  })
})

/** WCAG's contrast ratio of two computed `rgb(r, g, b)` colours. */
function contrast(...colours: string[]) {
  const [a, b] = colours.map((colour) => {
    const [r, g, bl] = colour
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((c) => {
        const v = Number(c) / 255
        return v <= 0.039_28 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
      })
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  })
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
}
