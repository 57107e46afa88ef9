import { afterEach, describe, expect, it } from 'vitest';
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { MetaDataFilter } from '@lectern/shared';
import { changeLanguage } from '../../i18n';
import { MetadataFilterBuilder } from './MetadataFilterBuilder';

/**
 * The builder mounted in happy-dom as a controlled field: switching to manual adds a first row, rows
 * are added and removed, the and/or switch appears with two rows, and each change reaches onChange
 * as the `meta_data_filter` to store. Keys come from the given summaries.
 */

let root: Root | null = null;
let host: HTMLDivElement;
const changes: MetaDataFilter[] = [];

function Harness({ initial }: { initial: MetaDataFilter }) {
  const [value, setValue] = useState<MetaDataFilter>(initial);
  return (
    <MetadataFilterBuilder
      kbIds={['kb1']}
      summaries={[{ author: [['Alice', 2]], year: [['2024', 1]] }]}
      value={value}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
    />
  );
}

async function mount(initial: MetaDataFilter) {
  host = document.createElement('div');
  document.body.appendChild(host);
  const client = new QueryClient();
  await act(async () => {
    root = createRoot(host);
    root.render(
      <QueryClientProvider client={client}>
        <Harness initial={initial} />
      </QueryClientProvider>,
    );
  });
}

const rows = () => host.querySelectorAll('[data-testid="meta-filter-row"]');
const button = (text: string) =>
  [...host.querySelectorAll('button')].find((b) => b.textContent?.includes(text)) as HTMLButtonElement;

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host?.remove();
  changes.length = 0;
});

describe('MetadataFilterBuilder', () => {
  it('an off filter shows only the method and its hint', async () => {
    await changeLanguage('en');
    await mount({});
    expect(host.textContent).toContain('Every document of the knowledge bases is searched.');
    expect(rows()).toHaveLength(0);
    expect(host.textContent).not.toContain('Add condition');
  });

  it('manual: rows with key, operator and value; add, and/or, remove', async () => {
    await mount({ method: 'manual', manual: [{ key: 'author', op: 'is', value: 'Alice' }] });
    expect(rows()).toHaveLength(1);
    const inputs = rows()[0].querySelectorAll('input');
    expect((inputs[0] as HTMLInputElement).value).toBe('author');
    expect(host.textContent).toContain('is');
    // One row: no and/or switch yet.
    expect(host.textContent).not.toContain('All (and)');

    await act(async () => button('Add condition').click());
    expect(rows()).toHaveLength(2);
    expect(host.textContent).toContain('All (and)');
    expect(host.textContent).toContain('Enter a key.');
    // The empty new row is not stored (no key yet).
    expect(changes.at(-1)).toEqual({
      method: 'manual',
      logic: 'and',
      manual: [{ key: 'author', op: 'is', value: 'Alice' }],
    });

    const or = [...host.querySelectorAll('input[type="radio"]')].find(
      (r) => (r as HTMLInputElement).value === 'or',
    ) as HTMLInputElement;
    await act(async () => or.click());
    expect(changes.at(-1)?.logic).toBe('or');

    const remove = rows()[0].querySelector('button[aria-label="Remove condition"]') as HTMLButtonElement;
    await act(async () => remove.click());
    expect(rows()).toHaveLength(1);
    expect(changes.at(-1)).toEqual({ method: 'manual', logic: 'or', manual: [] });
  });

  it('strings follow the interface language', async () => {
    await changeLanguage('de');
    await mount({ method: 'manual', manual: [{ key: 'year', op: '≥', value: '2020' }] });
    expect(host.textContent).toContain('Bedingung hinzufügen');
    expect(host.textContent).toContain('Nur Dokumente, deren Metadaten diese Bedingungen erfüllen');
    await changeLanguage('en');
  });
});
