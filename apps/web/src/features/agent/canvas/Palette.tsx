import type { DragEvent } from 'react';
import { Button, Collapse, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { palette } from '@lectern/agent-core/editor';
import { operatorIcon, operatorLabel } from './operator-meta';

export const DRAG_TYPE = 'application/x-lectern-operator';

const SECTIONS = palette();

export interface PaletteProps {
  /** The selected container (Iteration/Loop), where a click adds the new node; ExitLoop needs a Loop. */
  container: { id: string; label: string } | null;
  onAdd: (operator: string) => void;
}

/** The add-node menu, grouped as the v0.24 editor groups it (AGENTS.md §9.2); click or drag onto the canvas. */
export function Palette({ container, onAdd }: PaletteProps) {
  const { t } = useTranslation();
  const onDragStart = (event: DragEvent, operator: string) => {
    event.dataTransfer.setData(DRAG_TYPE, operator);
    event.dataTransfer.effectAllowed = 'move';
  };
  const items = SECTIONS.map((section) => ({
    key: section.group,
    label: t(`agent.palette.${section.group}`),
    children: (
      <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
        {section.entries.map((entry) => {
          const loopOnly = section.onlyInsideLoop.includes(entry.name);
          const disabled = loopOnly && container?.label !== 'Loop';
          const button = (
            <Button
              key={entry.name}
              block
              size="small"
              type="text"
              icon={operatorIcon(entry.name)}
              disabled={disabled}
              draggable={!disabled}
              onDragStart={(e) => onDragStart(e, entry.name)}
              onClick={() => onAdd(entry.name)}
              style={{ justifyContent: 'flex-start' }}
              data-testid={`palette-${entry.name}`}
            >
              {operatorLabel(t, entry.name)}
            </Button>
          );
          return disabled ? (
            <Tooltip key={entry.name} title={t('agent.palette.onlyInsideLoop')}>
              <span>{button}</span>
            </Tooltip>
          ) : (
            button
          );
        })}
      </div>
    ),
  }));
  return (
    <nav
      aria-label={t('agent.palette.title')}
      style={{ width: 210, overflowY: 'auto', borderRight: '1px solid #f0f0f0', padding: 8 }}
    >
      <Typography.Text strong>{t('agent.palette.title')}</Typography.Text>
      {container && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0' }}>
          {t('agent.palette.addingInside', { name: container.label })}
        </Typography.Paragraph>
      )}
      <Collapse size="small" ghost items={items} defaultActiveKey={SECTIONS.map((s) => s.group)} />
      <Button
        block
        size="small"
        icon={operatorIcon('Note')}
        onClick={() => onAdd('Note')}
        draggable
        onDragStart={(e) => onDragStart(e, 'Note')}
        data-testid="palette-Note"
      >
        {t('agent.palette.addNote')}
      </Button>
    </nav>
  );
}
