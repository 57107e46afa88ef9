import type { ReactNode } from 'react';
import { Button, Typography } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/**
 * A panel on the right of the canvas (the node form, the run panel): part of the layout, so it never
 * covers the toolbar or the canvas. `hidden` keeps it mounted (a run keeps streaming while closed).
 */
export function SidePanel({
  title,
  extra,
  hidden,
  width = 440,
  onClose,
  children,
  testId,
}: {
  title: ReactNode;
  extra?: ReactNode;
  hidden?: boolean;
  width?: number;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <aside
      aria-label={typeof title === 'string' ? title : undefined}
      data-testid={testId}
      style={{
        width,
        flex: 'none',
        display: hidden ? 'none' : 'flex',
        flexDirection: 'column',
        borderLeft: '1px solid #f0f0f0',
        minHeight: 0,
      }}
    >
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 8,
          padding: '8px 12px',
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <Typography.Text strong style={{ flex: 1 }}>
          {title}
        </Typography.Text>
        {extra}
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={t('agent.editor.close')}
          onClick={onClose}
        />
      </div>
      <div
        style={{
          flex: 1,
          overflowY: 'auto',
          padding: 12,
          display: 'flex',
          flexDirection: 'column',
          minHeight: 0,
        }}
      >
        {children}
      </div>
    </aside>
  );
}
