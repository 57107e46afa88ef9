import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { Form } from 'antd';
import '../../../i18n';
import { ChildrenDelimiterField, FieldMapView, TocExtractionField } from './StructureSettings';

describe('structure settings fields', () => {
  it('shows the Table field map as columns with their detected types', () => {
    const html = renderToStaticMarkup(
      <Form>
        <FieldMapView fieldMap={{ age_long: 'Age', joined_dt: 'Joined', name_tks: 'Name/Full name' }} />
      </Form>,
    );
    expect(html).toContain('Table columns');
    for (const text of [
      'Age',
      'Integer',
      'age_long',
      'Joined',
      'Date and time',
      'Name/Full name',
      'Free text',
    ])
      expect(html).toContain(text);
    expect(html).not.toContain('No table has been parsed yet.');
  });

  it('says so when no table has been parsed', () => {
    const html = renderToStaticMarkup(
      <Form>
        <FieldMapView fieldMap={undefined} />
      </Form>,
    );
    expect(html).toContain('No table has been parsed yet.');
  });

  it('shows the stored child delimiter with its control characters escaped, and the TOC switch state', () => {
    const html = renderToStaticMarkup(
      <Form initialValues={{ parser_config: { children_delimiter: '\n`##`', toc_extraction: true } }}>
        <ChildrenDelimiterField />
        <TocExtractionField />
      </Form>,
    );
    expect(html).toContain('Child chunk delimiter');
    expect(html).toContain('value="\\n`##`"');
    expect(html).toContain('Table of contents extraction');
    expect(html).toContain('role="switch"');
    expect(html).toContain('aria-checked="true"');
  });
});
