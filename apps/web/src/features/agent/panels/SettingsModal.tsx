import { useEffect } from 'react';
import { App, Avatar, Button, Form, Input, Modal, Radio, Space, Upload } from 'antd';
import { RobotOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useCanvasSetting } from '../../../api/canvas';
import { avatarDataUrl } from '../../../lib/avatar';

export interface CanvasSettings {
  title: string;
  description: string | null;
  avatar: string | null;
  permission: 'me' | 'team';
}

/** Title (required, SPEC §5), description, avatar and permission (only me / team) of an agent. */
export function SettingsModal({
  canvasId,
  open,
  value,
  onClose,
  onSaved,
}: {
  canvasId: string;
  open: boolean;
  value: CanvasSettings;
  onClose: () => void;
  onSaved: (v: CanvasSettings) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CanvasSettings>();
  const setting = useCanvasSetting();
  const avatar = Form.useWatch('avatar', form);
  useEffect(() => {
    if (open) form.setFieldsValue(value);
  }, [open, value, form]);
  const save = async (v: CanvasSettings) => {
    const result = await setting.mutateAsync({
      id: canvasId,
      title: v.title.trim(),
      description: v.description ?? '',
      avatar: v.avatar ?? '',
      permission: v.permission,
    });
    if (result.code !== 0) {
      void message.error(result.message);
      return;
    }
    onSaved({ ...v, title: v.title.trim() });
    void message.success(t('agent.settings.saved'));
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('agent.settings.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      confirmLoading={setting.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item
          name="title"
          label={t('agent.settings.name')}
          rules={[{ required: true, whitespace: true, message: t('agent.settings.nameRequired') }]}
        >
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="description" label={t('agent.settings.description')}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="avatar" label={t('agent.settings.avatar')}>
          <Space>
            <Avatar src={avatar || undefined} icon={<RobotOutlined />} size={48} shape="square" />
            <Upload
              accept="image/*"
              showUploadList={false}
              beforeUpload={async (file) => {
                form.setFieldValue('avatar', await avatarDataUrl(file));
                return false;
              }}
            >
              <Button icon={<UploadOutlined />}>{t('agent.settings.uploadAvatar')}</Button>
            </Upload>
          </Space>
        </Form.Item>
        <Form.Item name="permission" label={t('agent.settings.permission')}>
          <Radio.Group
            options={[
              { value: 'me', label: t('agent.settings.onlyMe') },
              { value: 'team', label: t('agent.settings.team') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
