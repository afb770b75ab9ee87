import type { UsageTotals } from '../../core';
import type { CliValues } from './account-commands';
import { withAccounts, type CliIo } from './cli-io';

/** Columns padded to their widest cell. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')).join('\n');
}

const HEADINGS = ['requests', 'characters', 'audio s', 'cache hits', 'errors'];
const numbers = (totals: UsageTotals): string[] => [totals.requests, totals.characters, totals.audioSeconds, totals.cacheHits, totals.errors].map(String);

/**
 * `tts-gateway usage --email <e> [--from] [--to]`: the account's usage report, as
 * GET /api/v1/usage gives it (what each synthesis recorded), by UTC day and by model.
 */
export async function usage(values: CliValues, io: CliIo): Promise<number> {
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  return withAccounts(text('config'), io, async ({ operator }) => {
    const { account, report } = await operator.usage(String(values.email), { from: text('from'), to: text('to') });
    const period = `${report.from} to ${report.to} (UTC days)`;
    if (report.byDay.length === 0) {
      io.stdout.write(`No usage recorded for ${account.email} from ${period}\n`);
      return 0;
    }
    const days = table([['day', ...HEADINGS], ...report.byDay.map((day) => [day.date, ...numbers(day)])]);
    const models = table([['model', ...HEADINGS], ...report.byModel.map((model) => [model.model, ...numbers(model)]), ['total', ...numbers(report.totals)]]);
    io.stdout.write(`Usage of ${account.email} from ${period}\n\nBy day:\n${days}\n\nBy model:\n${models}\n`);
    return 0;
  });
}
