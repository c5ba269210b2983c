/**
 * The figures of one `npm run bench` run, printed together when the run
 * ends: each benchmark file records its headline figures here (the paid call,
 * its limits, the statistics endpoints…) beside printing its own table.
 */
const figures: { bench: string; name: string; value: string }[] = []

process.once('exit', () => {
  if (figures.length === 0) return
  console.log('\nnpm run bench: summary')
  for (const { bench, name, value } of figures) {
    console.log(`  ${`[${bench}] ${name}`.padEnd(64)} ${value}`)
  }
})

export function recordFigure(bench: string, name: string, value: string) {
  figures.push({ bench, name, value })
}
