import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import { emptyMarketplace } from '#tests/support/database'
import type { Group } from '@japa/runner/core'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { privateKeyToPublic } from '@stacks/transactions'
import { publicUrl } from '#core/public_url'
import { changeConfig } from '#tests/support/config'
import { signMessage, walletOf } from '#tests/support/sign_in'
import { WebConfig } from '#web/define_config'

/** Debian's Chromium: `.ci/run` installs it (apt-get install chromium) when it is missing. */
export const CHROMIUM = '/usr/bin/chromium'

const webConfig = await app.container.make(WebConfig)

/** Without the background-networking flags Chromium calls Google's hosts, which this network refuses. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export const DESKTOP = { width: 1280, height: 860 }
export const PHONE = { width: 390, height: 844 }

/**
 * A wallet extension as @stacks/connect sees one: `window.LeatherProvider`
 * with `request(method, params)`, answering JSON-RPC. It holds devnet keys and
 * signs in Node exactly as a wallet would (`stx_signMessage`: the RSV
 * signature of the Stacks message hash), for the account it has selected.
 */
export class TestWallet {
  /** Every request the page made, in order. */
  readonly requests: Array<{ method: string; params: unknown }> = []
  #active = 0

  constructor(readonly keys: string[]) {}

  get address() {
    return walletOf(this.keys[this.#active])
  }

  /** The person picks another account in the wallet. */
  use(index: number) {
    this.#active = index
  }

  answer(method: string, params: { message?: string } | undefined) {
    this.requests.push({ method, params })
    const key = this.keys[this.#active]
    const publicKey = privateKeyToPublic(key) as string
    switch (method) {
      case 'getAddresses':
        return {
          addresses: [
            { symbol: 'BTC', address: 'bcrt1qtestwalletnotused0000000000000000000', publicKey },
            { symbol: 'STX', address: walletOf(key), publicKey },
          ],
        }
      case 'stx_signMessage':
        return { signature: signMessage(params?.message ?? '', key), publicKey }
      default:
        throw new Error(`the test wallet does not do ${method}`)
    }
  }
}

/** In the page: `window.LeatherProvider`, whose requests the TestWallet answers from Node. */
const LEATHER_PROVIDER = `
  let id = 0
  window.LeatherProvider = {
    isLeather: true,
    async request(method, params) {
      return { jsonrpc: '2.0', id: String(++id), ...(await window.__testWallet(method, params)) }
    },
  }
`

async function injectWallet(context: BrowserContext, wallet: () => TestWallet) {
  await context.exposeBinding(
    '__testWallet',
    (_source, method: string, params?: { message?: string }) => {
      try {
        return { result: wallet().answer(method, params) }
      } catch (error) {
        return { error: { code: -32_601, message: (error as Error).message } }
      }
    }
  )
  await context.addInitScript({ content: LEATHER_PROVIDER })
}

/** Something a page got wrong, as a person with the developer tools open would see it. */
export interface PageProblem {
  /** The address of the page it happened on. */
  page: string
  /** The request's address, for a failed request or a console line about one. */
  url?: string
  text: string
}

/**
 * Watches every page of a browser context for what should never happen: an
 * error in the console (a script's error, a refused `pattern`, a resource that
 * failed to load), a Content-Security-Policy refusal at any level, an uncaught
 * exception, a request that failed or was answered with 400 or more. A test
 * that provokes one on purpose says so with `tolerate`.
 */
export class PageProblems {
  #found: PageProblem[] = []
  #tolerated: Array<(problem: PageProblem) => boolean> = []

  constructor(context: BrowserContext) {
    context.on('console', (message) => {
      const text = message.text()
      if (message.type() === 'error' || text.includes('Content Security Policy')) {
        this.#add({ page: message.page()?.url() ?? '', url: message.location().url, text })
      }
    })
    context.on('weberror', (error) => {
      this.#add({ page: error.page()?.url() ?? '', text: `uncaught ${error.error().stack}` })
    })
    context.on('requestfailed', (request) => {
      // The page moved on (a navigation, a newer search) before this request ended.
      if (request.failure()?.errorText === 'net::ERR_ABORTED') return
      const page = request.frame().page().url()
      const text = `${request.method()} ${request.url()} failed: ${request.failure()?.errorText}`
      this.#add({ page, url: request.url(), text })
    })
    context.on('response', (response) => {
      if (response.status() < 400) return
      const page = response.frame().page().url()
      const text = `${response.request().method()} ${response.url()} answered ${response.status()}`
      this.#add({ page, url: response.url(), text })
    })
  }

  /** From now on, problems `expected` matches are not problems (a page that is meant to 404). */
  tolerate(expected: (problem: PageProblem) => boolean) {
    this.#tolerated.push(expected)
  }

  /** The problems found since the last call, and forgets them. */
  take() {
    return this.#found.splice(0)
  }

  assertNone() {
    const found = this.take()
    if (found.length === 0) return
    throw new Error(
      `the pages went wrong:\n${found.map((problem) => `  on ${problem.page}: ${problem.text}`).join('\n')}`
    )
  }

  #add(problem: PageProblem) {
    if (!this.#tolerated.some((expected) => expected(problem))) this.#found.push(problem)
  }
}

export interface BrowserSession {
  context: BrowserContext
  page: Page
  wallet: TestWallet
  /** What went wrong in the pages so far; the test fails on any left at its end. */
  problems: PageProblems
  /** The app's address (PUBLIC_URL) joined with a path. */
  url(path: string): string
}

/**
 * Per test: Debian's Chromium through playwright-core with a fresh profile
 * directory, a page at desktop size, and a test wallet holding `keys` (the
 * first account selected). Afterwards the browser closes and every provider,
 * payment, withdrawal and session the test made is deleted (the pages talk
 * to the app over real HTTP, so no test transaction can wrap them); anything
 * the pages got wrong on the way (`PageProblems`: a console error, a
 * Content-Security-Policy refusal, a failed request) fails the test.
 */
export function useBrowser(group: Group) {
  const session = {} as BrowserSession
  const setWallet = (keys: string[]) => {
    session.wallet = new TestWallet(keys)
    return session.wallet
  }
  group.each.setup(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`
      )
    }
    const profile = mkdtempSync(join(tmpdir(), 'tollbooth-chromium-'))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: DESKTOP,
    })
    context.setDefaultTimeout(15_000)
    const problems = new PageProblems(context)
    if (process.env.BROWSER_LOG === '1') {
      context.on('console', (message) => console.log(`[page ${message.type()}] ${message.text()}`))
      context.on('weberror', (error) => console.log(`[page error] ${error.error().message}`))
    }
    const wallet = setWallet([])
    await injectWallet(context, () => session.wallet)
    Object.assign(session, {
      context,
      page: context.pages()[0] ?? (await context.newPage()),
      wallet,
      problems,
      url: (path: string) => publicUrl(path),
    })
    return async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
      await emptyMarketplace()
      problems.assertNone()
    }
  })
  return { session, setWallet }
}

/** The wallet's first choice is remembered, as @stacks/connect does after its picker. */
export async function rememberWalletChoice(page: Page) {
  await page.addInitScript({ content: `localStorage.setItem('STX_PROVIDER', 'LeatherProvider')` })
}

/**
 * Signs in through the page: the dashboard's button, @stacks/connect's wallet
 * picker (Leather: the injected test wallet), the wallet's signature.
 */
export async function signInThroughPage(page: Page, options: { picker?: boolean } = {}) {
  await page.getByRole('button', { name: 'Connect wallet and sign in' }).click()
  if (options.picker !== false) {
    await page.getByRole('button', { name: 'Connect' }).first().click()
  }
}

/** Live parts of the pages poll fast, so a test sees updates within a fraction of a second. */
export function pollQuickly() {
  return changeConfig(webConfig, {
    activityPollMs: 150,
    withdrawalPollMs: 150,
    dashboardPollMs: 150,
  })
}

const SCREENSHOTS = app.makePath('docs/screenshots')

/**
 * The pictures of the pages (docs/pages.md), taken by the tests that reach them, at
 * desktop and phone width. Written only when asked (`npm run screenshots`),
 * so a test run leaves the tree as it was.
 */
export async function screenshot(page: Page, name: string) {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return
  mkdirSync(SCREENSHOTS, { recursive: true })
  const size = page.viewportSize() ?? DESKTOP
  for (const [suffix, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))')
    await page.screenshot({
      path: join(SCREENSHOTS, `${name}-${suffix}.png`),
      fullPage: suffix === 'desktop',
    })
  }
  await page.setViewportSize(size)
}

/**
 * Retries an assertion about the page until it holds (the page updates on its
 * own: islands mount, lists refresh), failing with its last error after
 * `timeoutMs`. Polls every 50 ms.
 */
export async function eventually(assertion: () => Promise<void>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await assertion()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}
