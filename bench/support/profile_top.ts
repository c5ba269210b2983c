import { readFileSync } from 'node:fs'

/**
 * The top items of a V8 CPU profile (`node --cpu-prof`), by self time:
 * functions, and packages (node_modules/<name>, node:internals, our app/…).
 * `node bench/support/profile_top.ts <file.cpuprofile> [fromUs toUs]`: the
 * optional window (CLOCK_MONOTONIC µs, as the paid-call bench prints it)
 * keeps only the samples of the timed phases.
 */
interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

const [file, from, to] = process.argv.slice(2)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const window = from ? { from: Number(from), to: Number(to) } : null
const nodes = new Map(profile.nodes.map((node) => [node.id, node]))

function packageOf(url: string) {
  if (url === '') return '(native / V8)'
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (inModules) return inModules[1]
  if (url.startsWith('node:')) return 'node: internals'
  const ours = /\/build\/((?:app|start|config|providers)\/[^/]+)/.exec(url)
  return ours ? ours[1] : url
}

const byFunction = new Map<string, number>()
const byPackage = new Map<string, number>()
let total = 0
let at = profile.startTime
for (const [index, sample] of profile.samples.entries()) {
  at += profile.timeDeltas[index]
  if (window && (at < window.from || at > window.to)) continue
  const delta = profile.timeDeltas[index + 1] ?? 0
  const { callFrame } = nodes.get(sample)!
  if (callFrame.functionName === '(idle)') continue
  const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*\/(node_modules|build)\//, '$1/')}:${callFrame.lineNumber + 1}`
  byFunction.set(name, (byFunction.get(name) ?? 0) + delta)
  const pkg = packageOf(callFrame.url)
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta)
  total += delta
}

function print(title: string, table: Map<string, number>, count: number) {
  console.log(`\n${title}`)
  for (const [name, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(
      `  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`
    )
  }
}
console.log(`busy ${(total / 1000).toFixed(0)} ms${window ? ' in the window' : ''}`)
print('by package', byPackage, 20)
print('by function (self time)', byFunction, 30)
