import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RetrievalTestBody } from '@lectern/shared';
import { changeLanguage } from '../../i18n';
import { RetrievalTestingTab, retrievalBody } from './RetrievalTestingTab';

/**
 * The retrieval-testing form with its metadata filter: the request carries `meta_data_filter` only
 * when the filter is on; the mounted tab builds a manual condition, refuses to run with an unfinished
 * row, and sends the filter with the run.
 */

const mutateAsync = vi.fn(async (_body: RetrievalTestBody) => ({
  code: 0,
  message: '',
  data: { total: 0, chunks: [], doc_aggs: [], labels: null },
}));

vi.mock('../../api/chunk', () => ({
  useRerankModels: () => ({ data: [], isPending: false }),
  useRetrievalTest: () => ({ mutateAsync, isPending: false }),
}));
vi.mock('../../api/document', () => ({
  useMetadataSummaries: () => ({ data: [{ author: [['Alice', 2]] }] }),
}));

// React's act() warns unless the environment says it is a test one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const base = { question: ' lamps ', similarity_threshold: 0.2, keyword_weight: 0.7, top_k: 1024 };

describe('retrievalBody', () => {
  it('sends the metadata filter only when it is on', () => {
    expect(retrievalBody('kb1', base, 1, [])).not.toHaveProperty('meta_data_filter');
    expect(retrievalBody('kb1', { ...base, meta_data_filter: {} }, 1, [])).not.toHaveProperty(
      'meta_data_filter',
    );
    expect(
      retrievalBody('kb1', { ...base, meta_data_filter: { method: 'disabled' } }, 1, []),
    ).not.toHaveProperty('meta_data_filter');
    const manual = retrievalBody(
      'kb1',
      {
        ...base,
        meta_data_filter: { method: 'manual', manual: [{ key: ' author ', op: 'is', value: 'Alice' }] },
      },
      2,
      ['d1'],
    );
    expect(manual).toMatchObject({
      kb_id: 'kb1',
      question: 'lamps',
      page: 2,
      doc_ids: ['d1'],
      vector_similarity_weight: 0.3,
      meta_data_filter: {
        method: 'manual',
        logic: 'and',
        manual: [{ key: 'author', op: 'is', value: 'Alice' }],
      },
    });
    expect(
      retrievalBody('kb1', { ...base, meta_data_filter: { method: 'auto' } }, 1, []).meta_data_filter,
    ).toEqual({
      method: 'auto',
    });
  });
});

let root: Root | null = null;
let host: HTMLDivElement;

/** Sets a React-controlled input's value as typing would. */
function type(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set;
  setter?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Opens the antd Select labelled `label` and picks the option showing `text`. */
async function choose(label: string, text: string) {
  const input = document.querySelector(`input[aria-label="${label}"]`) as HTMLInputElement;
  const select = input.closest('.ant-select') as HTMLElement;
  await act(async () => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
  const option = [...document.querySelectorAll('.ant-select-item-option')].find(
    (o) => o.textContent === text,
  ) as HTMLElement;
  await act(async () => option.click());
}

const submit = async () => {
  const button = [...host.querySelectorAll('button')].find((b) =>
    b.textContent?.includes('Test'),
  ) as HTMLButtonElement;
  await act(async () => button.click());
  await act(async () => new Promise((r) => setTimeout(r, 50)));
};

describe('RetrievalTestingTab metadata filter', () => {
  beforeEach(async () => {
    await changeLanguage('en');
    host = document.createElement('div');
    document.body.appendChild(host);
    await act(async () => {
      root = createRoot(host);
      root.render(
        <QueryClientProvider client={new QueryClient()}>
          <RetrievalTestingTab kbId="kb1" />
        </QueryClientProvider>,
      );
    });
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = null;
    host.remove();
    mutateAsync.mockClear();
  });

  it('runs with the manual condition built in the form, not with an unfinished one', async () => {
    expect(host.textContent).toContain('Metadata filter');
    const question = host.querySelector('textarea[aria-label="Question"]') as HTMLTextAreaElement;
    await act(async () => type(question, 'lamps'));
    await choose('Filter method', 'Manual');
    const row = () => host.querySelector('[data-testid="meta-filter-row"]') as HTMLElement;
    expect(row()).not.toBeNull();

    // A row without a key: the run is refused with the row's problem.
    await submit();
    expect(mutateAsync).not.toHaveBeenCalled();
    expect(host.textContent).toContain('Enter a key.');

    // The row's inputs: the key first, the value last (the operator select sits between).
    const inputs = () => [...row().querySelectorAll('input')];
    await act(async () => type(inputs()[0], 'author'));
    await act(async () => type(inputs().at(-1)!, 'Alice'));
    await submit();
    expect(mutateAsync).toHaveBeenCalledTimes(1);
    expect(mutateAsync.mock.calls[0][0]).toMatchObject({
      kb_id: 'kb1',
      question: 'lamps',
      meta_data_filter: {
        method: 'manual',
        logic: 'and',
        manual: [{ key: 'author', op: 'is', value: 'Alice' }],
      },
    });
  }, 30_000);
});
