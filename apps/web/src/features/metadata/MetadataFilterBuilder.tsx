import { useEffect, useState } from 'react';
import { AutoComplete, Button, Flex, Radio, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  META_FILTER_METHODS,
  META_OPERATORS,
  VALUELESS_META_OPERATORS,
  type MetaDataFilter,
  type MetaOperator,
} from '@lectern/shared';
import { useMetadataSummaries } from '../../api/document';
import {
  draftOf,
  emptyRow,
  filterOf,
  keySuggestions,
  rowProblems,
  valueSuggestions,
  type FilterDraft,
  type FilterRow,
  type MetaSummary,
} from './filter-state';

const SYMBOL_OPERATORS: readonly MetaOperator[] = ['=', '≠', '>', '<', '≥', '≤'];

export interface MetadataFilterBuilderProps {
  /** The stored `meta_data_filter` (any shape; `{}` = disabled). */
  value?: MetaDataFilter | Record<string, unknown> | null;
  onChange?: (filter: MetaDataFilter) => void;
  /** The selected knowledge bases: their metadata summaries suggest keys and values. */
  kbIds: string[];
  /** Summaries given directly (tests, pages that already hold them) instead of being fetched. */
  summaries?: MetaSummary[];
}

/**
 * The metadata filter of an assistant or a search app, as a form control: the method (off, manual,
 * automatic, automatic over chosen keys), and for manual filters rows of key / operator / value with
 * add and remove, joined by and/or. Keys and values are suggested from the selected knowledge bases.
 */
export function MetadataFilterBuilder({ value, onChange, kbIds, summaries }: MetadataFilterBuilderProps) {
  const { t } = useTranslation();
  const fetched = useMetadataSummaries(summaries ? [] : kbIds);
  const known = summaries ?? fetched.data ?? [];
  // The draft keeps rows still being typed (a row without a key is not part of the stored filter);
  // a value set from outside (form reset, another assistant) replaces it.
  const [draft, setDraft] = useState<FilterDraft>(() => draftOf(value));
  const incoming = JSON.stringify(filterOf(draftOf(value)));
  useEffect(() => {
    setDraft((current) =>
      JSON.stringify(filterOf(current)) === incoming ? current : draftOf(JSON.parse(incoming)),
    );
  }, [incoming]);
  const problems = rowProblems(draft);
  const keys = keySuggestions(known);

  // Comparison symbols read the same in every language; the worded operators are translated.
  const operatorLabel = (op: MetaOperator) =>
    SYMBOL_OPERATORS.includes(op) ? op : t(`metadata.operators.${op}`);
  const emit = (next: FilterDraft) => {
    setDraft(next);
    onChange?.(filterOf(next));
  };
  const setRow = (i: number, row: Partial<FilterRow>) =>
    emit({ ...draft, rows: draft.rows.map((r, j) => (j === i ? { ...r, ...row } : r)) });

  return (
    <Flex vertical gap={8} data-testid="meta-filter">
      <Select
        aria-label={t('metadata.method')}
        value={draft.method}
        style={{ maxWidth: 320 }}
        onChange={(method) =>
          emit({
            ...draft,
            method,
            rows: method === 'manual' && draft.rows.length === 0 ? [emptyRow()] : draft.rows,
          })
        }
        options={META_FILTER_METHODS.map((m) => ({ value: m, label: t(`metadata.methods.${m}`) }))}
      />
      <Typography.Text type="secondary">{t(`metadata.methodHints.${draft.method}`)}</Typography.Text>
      {draft.method === 'semi_auto' && (
        <Select
          mode="tags"
          aria-label={t('metadata.keys')}
          placeholder={t('metadata.keysPlaceholder')}
          value={draft.keys}
          onChange={(chosen: string[]) => emit({ ...draft, keys: chosen })}
          options={keys.map((k) => ({ value: k, label: k }))}
        />
      )}
      {draft.method === 'manual' && (
        <>
          {draft.rows.length > 1 && (
            <Radio.Group
              aria-label={t('metadata.logic')}
              value={draft.logic}
              optionType="button"
              size="small"
              onChange={(e) => emit({ ...draft, logic: e.target.value as FilterDraft['logic'] })}
              options={[
                { value: 'and', label: t('metadata.and') },
                { value: 'or', label: t('metadata.or') },
              ]}
            />
          )}
          {draft.rows.map((row, i) => {
            const valueless = VALUELESS_META_OPERATORS.includes(row.op);
            const problem = problems[i];
            return (
              <div key={i} data-testid="meta-filter-row">
                <Space.Compact style={{ width: '100%' }}>
                  <AutoComplete
                    aria-label={t('metadata.key')}
                    placeholder={t('metadata.key')}
                    value={row.key}
                    style={{ width: '35%' }}
                    status={problem === 'keyRequired' ? 'error' : undefined}
                    options={keys.map((k) => ({ value: k }))}
                    filterOption={(input, option) =>
                      String(option?.value ?? '')
                        .toLowerCase()
                        .includes(input.toLowerCase())
                    }
                    onChange={(key: string) => setRow(i, { key })}
                  />
                  <Select
                    aria-label={t('metadata.operator')}
                    value={row.op}
                    style={{ width: '25%' }}
                    popupMatchSelectWidth={false}
                    onChange={(op: MetaOperator) => setRow(i, { op })}
                    options={META_OPERATORS.map((op) => ({
                      value: op,
                      label: operatorLabel(op),
                    }))}
                  />
                  <AutoComplete
                    aria-label={t('metadata.value')}
                    placeholder={valueless ? '' : t('metadata.value')}
                    value={valueless ? '' : row.value}
                    disabled={valueless}
                    style={{ width: '40%' }}
                    status={problem === 'valueRequired' ? 'error' : undefined}
                    options={valueSuggestions(known, row.key).map((v) => ({ value: v }))}
                    onChange={(v: string) => setRow(i, { value: v })}
                  />
                  <Button
                    icon={<DeleteOutlined />}
                    aria-label={t('metadata.removeCondition')}
                    onClick={() => emit({ ...draft, rows: draft.rows.filter((_, j) => j !== i) })}
                  />
                </Space.Compact>
                {problem && (
                  <Typography.Text type="danger">{t(`metadata.problems.${problem}`)}</Typography.Text>
                )}
              </div>
            );
          })}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            onClick={() => emit({ ...draft, rows: [...draft.rows, emptyRow()] })}
          >
            {t('metadata.addCondition')}
          </Button>
        </>
      )}
    </Flex>
  );
}
