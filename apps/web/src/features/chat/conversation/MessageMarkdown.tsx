import { memo, type ComponentProps } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import type { Reference } from '@lectern/shared';
import { remarkCitations } from '../lib/citations';
import { CitationBadge } from './CitationBadge';
import './markdown.css';

/**
 * An answer as markdown (GFM tables, lists, code), sanitised: raw HTML is never rendered and the
 * sanitiser only lets GitHub's safe elements through. Citations `[ID:n]` become badges with the chunk.
 */

/** GitHub's schema plus the one attribute our citation nodes carry. */
export const sanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    sup: [...(defaultSchema.attributes?.sup ?? []), 'dataCite'],
  },
};

const remarkPlugins = [remarkGfm, remarkCitations];
const rehypePlugins: ComponentProps<typeof Markdown>['rehypePlugins'] = [[rehypeSanitize, sanitizeSchema]];

function components(reference: Reference): Components {
  return {
    sup(props) {
      const cite = (props as Record<string, unknown>)['data-cite'];
      if (typeof cite === 'string' && /^\d+$/.test(cite)) {
        const index = Number(cite);
        return <CitationBadge index={index} chunk={reference.chunks[index]} />;
      }
      return <sup>{props.children}</sup>;
    },
    a({ href, children }) {
      return (
        <a href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children}
        </a>
      );
    },
    table({ children }) {
      return (
        <div style={{ overflowX: 'auto' }}>
          <table className="markdown-table">{children}</table>
        </div>
      );
    },
  };
}

export const MessageMarkdown = memo(function MessageMarkdown({
  content,
  reference,
}: {
  content: string;
  reference: Reference;
}) {
  return (
    <div className="message-markdown">
      <Markdown
        remarkPlugins={remarkPlugins}
        rehypePlugins={rehypePlugins}
        components={components(reference)}
      >
        {content}
      </Markdown>
    </div>
  );
});
