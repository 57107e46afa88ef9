import type { CSSProperties, ReactNode } from 'react';
import { Avatar, Button, Popconfirm, Space, Tooltip, Typography, theme } from 'antd';
import {
  CopyOutlined,
  DeleteOutlined,
  DislikeFilled,
  DislikeOutlined,
  LikeFilled,
  LikeOutlined,
  ReloadOutlined,
  RobotOutlined,
  SoundOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChatMessage, Reference } from '@lectern/shared';
import { AnswerBody } from './AnswerBody';

export interface MessageActions {
  onCopy?: () => void;
  onRegenerate?: () => void;
  onThumbUp?: () => void;
  onThumbDown?: () => void;
  onDelete?: () => void;
  onSpeak?: () => void;
  speaking?: boolean;
}

function ActionButton({
  label,
  icon,
  onClick,
  loading,
  pressed,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  loading?: boolean;
  pressed?: boolean;
}) {
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        aria-label={label}
        aria-pressed={pressed}
        icon={icon}
        onClick={onClick}
        loading={loading}
      />
    </Tooltip>
  );
}

/** One message of a conversation: the question on the right, the answer on the left with its actions. */
export function MessageItem({
  message,
  reference,
  avatar,
  streaming = false,
  error = false,
  actions = {},
}: {
  message: ChatMessage;
  reference: Reference;
  avatar?: string | null;
  streaming?: boolean;
  error?: boolean;
  actions?: MessageActions;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const mine = message.role === 'user';
  const bubble: CSSProperties = {
    maxWidth: '100%',
    padding: '10px 14px',
    borderRadius: 12,
    background: mine ? token.colorPrimaryBg : error ? token.colorErrorBg : token.colorFillQuaternary,
    border: `1px solid ${mine ? token.colorPrimaryBorder : error ? token.colorErrorBorder : token.colorBorderSecondary}`,
  };
  const deleteButton = actions.onDelete && (
    <Popconfirm
      title={t('chat.deleteMessageTitle')}
      description={t('chat.deleteMessageConfirm')}
      okText={t('common.delete')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={actions.onDelete}
    >
      <Tooltip title={t('chat.deleteMessage')}>
        <Button type="text" size="small" aria-label={t('chat.deleteMessage')} icon={<DeleteOutlined />} />
      </Tooltip>
    </Popconfirm>
  );

  return (
    <li
      data-role={message.role}
      data-testid={mine ? 'question' : 'answer'}
      style={{ display: 'flex', flexDirection: mine ? 'row-reverse' : 'row', gap: 10, listStyle: 'none' }}
    >
      <Avatar
        size={32}
        src={!mine && avatar ? avatar : undefined}
        icon={mine ? <UserOutlined /> : <RobotOutlined />}
        style={{ flex: 'none', background: mine ? token.colorPrimary : undefined }}
        alt=""
      />
      <div
        style={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: mine ? 'flex-end' : 'flex-start',
          gap: 4,
          minWidth: 0,
          maxWidth: 'min(760px, 85%)',
        }}
      >
        <div style={bubble}>
          {mine ? (
            <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
              {message.content}
            </Typography.Paragraph>
          ) : (
            <AnswerBody content={message.content} reference={reference} streaming={streaming} />
          )}
        </div>
        {!streaming && (
          <Space size={0} aria-label={t('chat.messageActions')}>
            {actions.onCopy && (
              <ActionButton label={t('chat.copy')} icon={<CopyOutlined />} onClick={actions.onCopy} />
            )}
            {actions.onRegenerate && (
              <ActionButton
                label={t('chat.regenerate')}
                icon={<ReloadOutlined />}
                onClick={actions.onRegenerate}
              />
            )}
            {actions.onThumbUp && (
              <ActionButton
                label={t('chat.thumbUp')}
                icon={message.thumbup === true ? <LikeFilled /> : <LikeOutlined />}
                pressed={message.thumbup === true}
                onClick={actions.onThumbUp}
              />
            )}
            {actions.onThumbDown && (
              <ActionButton
                label={t('chat.thumbDown')}
                icon={message.thumbup === false ? <DislikeFilled /> : <DislikeOutlined />}
                pressed={message.thumbup === false}
                onClick={actions.onThumbDown}
              />
            )}
            {actions.onSpeak && (
              <ActionButton
                label={t('chat.speak')}
                icon={<SoundOutlined />}
                onClick={actions.onSpeak}
                loading={actions.speaking}
              />
            )}
            {deleteButton}
          </Space>
        )}
      </div>
    </li>
  );
}
