import { FaultTally } from '#tests/simulation/faults'
import type { SimulationReport } from '#tests/simulation/simulation'

/** Totals over the seeds of one `npm run simulate`, printed when it ends. */
export class SimulationSummary {
  #passed: SimulationReport[] = []
  #failed: { seed: number; step: number | 'end' }[] = []
  #startedAt = performance.now()

  passed(report: SimulationReport) {
    this.#passed.push(report)
  }

  failed(seed: number, step: number | 'end') {
    this.#failed.push({ seed, step })
  }

  render(): string {
    const faults = new FaultTally()
    const kinds = new Map<string, number>()
    const realMs = new Map<string, number>()
    let steps = 0
    let checks = 0
    for (const report of this.#passed) {
      faults.add(report.faults)
      for (const [kind, count] of report.kinds) kinds.set(kind, (kinds.get(kind) ?? 0) + count)
      for (const [kind, ms] of report.realMs) realMs.set(kind, (realMs.get(kind) ?? 0) + ms)
      steps += report.steps
      checks += report.invariantChecks
    }
    const seconds = (performance.now() - this.#startedAt) / 1_000
    const byCount = (counts: Map<string, number>) =>
      [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    return [
      '',
      'Simulation summary',
      `  seeds: ${this.#passed.length + this.#failed.length} run, ${this.#passed.length} passed, ${this.#failed.length} failed`,
      ...this.#failed.map(({ seed, step }) => `    seed ${seed} failed at step ${step}`),
      `  steps: ${steps} in passing seeds, ${seconds.toFixed(1)} s in all (${(steps / seconds).toFixed(1)} steps/s)`,
      `  invariant checks: ${checks}`,
      ...this.#leftoverIo(),
      '  steps by kind:',
      ...byCount(kinds).map(([kind, count]) => `    ${kind}: ${count}`),
      '  real time by step kind (passing seeds): total s, ms per step',
      ...byCount(realMs).map(([kind, ms]) => {
        const count = kinds.get(kind)
        const perStep = count ? `, ${(ms / count).toFixed(0)} ms` : ''
        return `    ${kind}: ${(ms / 1_000).toFixed(1)} s${perStep}`
      }),
      '  faults injected by kind:',
      ...byCount(faults.counts).map(([kind, count]) => `    ${kind}: ${count}`),
      '',
    ].join('\n')
  }

  /** I/O PendingIo still tracked at the end of a passing seed: each is a leak in its tracking. */
  #leftoverIo(): string[] {
    const leaks = this.#passed.filter((report) => report.leftoverIo !== null)
    if (leaks.length === 0) return ['  I/O still tracked at the end of a seed: none']
    return [
      '  I/O still tracked at the end of a seed (a leak in PendingIo):',
      ...leaks.map((report) => `    seed ${report.seed}: ${report.leftoverIo}`),
    ]
  }
}
