import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import '../../../i18n';
import { mindMapTree } from '../../search';
import { MindMapView } from './MindMapView';

const job = <button type="button">Run mind map</button>;

describe('MindMapView', () => {
  it('draws the stored mind map as a tree under the job row', () => {
    const tree = mindMapTree({
      id: 'Heat pumps',
      children: [{ id: 'Efficiency', children: [{ id: 'COP above 3' }] }, { id: 'Installation' }],
    });
    const html = renderToStaticMarkup(<MindMapView tree={tree} loading={false} error={null} job={job} />);
    expect(html).toContain('Mind-map job');
    expect(html).toContain('Run mind map');
    expect(html).toMatch(/role="tree"/);
    for (const label of ['Heat pumps', 'Efficiency', 'COP above 3', 'Installation'])
      expect(html).toContain(label);
    expect(html).not.toContain('No mind map yet');
  });

  it('shows the empty state with the job until a map exists, and load errors', () => {
    const empty = renderToStaticMarkup(<MindMapView tree={[]} loading={false} error={null} job={job} />);
    expect(empty).toContain('No mind map yet');
    expect(empty).toContain('Run the mind-map job');
    expect(empty).toContain('Run mind map');
    expect(empty).not.toMatch(/role="tree"/);
    const failed = renderToStaticMarkup(
      <MindMapView tree={[]} loading={false} error="The mind map could not be loaded." job={job} />,
    );
    expect(failed).toContain('The mind map could not be loaded.');
    expect(failed).not.toContain('No mind map yet');
  });
});
