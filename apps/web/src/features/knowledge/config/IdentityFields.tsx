import { Avatar, Button, Form, Input, Radio, Select, Space, Upload } from 'antd';
import { DatabaseOutlined, DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { KB_LANGUAGES, KB_NAME_LIMIT_BYTES, KB_PERMISSIONS, type KbDetail } from '@lectern/shared';
import { feedback } from '../../../api/feedback';
import { useEmbeddingModels } from '../../../api/kb';
import { avatarDataUrl } from '../../../lib/avatar';
import { kbNameProblem } from '../names';
import { modelLabel } from '../../../lib/model-name';

function AvatarInput({ value, onChange }: { value?: string | null; onChange?: (v: string | null) => void }) {
  const { t } = useTranslation();
  return (
    <Space align="center" size="large">
      <Avatar
        shape="square"
        size={64}
        src={value || undefined}
        icon={<DatabaseOutlined />}
        alt={t('knowledge.photo')}
        data-testid="kb-avatar"
      />
      <Upload
        accept="image/*"
        showUploadList={false}
        maxCount={1}
        beforeUpload={(file) => {
          if (!file.type.startsWith('image/')) feedback.error(t('knowledge.photoNotImage'));
          else void avatarDataUrl(file).then((url) => onChange?.(url));
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />}>{t('knowledge.uploadPhoto')}</Button>
      </Upload>
      {value && (
        <Button icon={<DeleteOutlined />} onClick={() => onChange?.(null)}>
          {t('knowledge.removePhoto')}
        </Button>
      )}
    </Space>
  );
}

/** Identity, permission and embedding model of a knowledge base (SPEC §3). */
export function IdentityFields({ kb }: { kb: KbDetail }) {
  const { t } = useTranslation();
  const models = useEmbeddingModels();
  const locked = kb.chunk_num > 0;
  const options = (models.data ?? []).map((m) => ({
    value: m.value,
    label: `${m.label} (${m.factory})`,
    disabled: !m.available,
  }));
  if (kb.embd_id && !options.some((o) => o.value === kb.embd_id))
    options.unshift({ value: kb.embd_id, label: modelLabel(kb.embd_id), disabled: false });

  return (
    <>
      <Form.Item
        name="name"
        label={t('knowledge.name')}
        required
        rules={[
          {
            validator: async (_, value: string | undefined) => {
              const problem = kbNameProblem(value);
              if (problem === 'required') throw new Error(t('knowledge.nameRequired'));
              if (problem === 'tooLong')
                throw new Error(t('knowledge.nameTooLong', { max: KB_NAME_LIMIT_BYTES }));
            },
          },
        ]}
      >
        <Input style={{ maxWidth: 480 }} />
      </Form.Item>
      <Form.Item name="avatar" label={t('knowledge.photo')} extra={t('knowledge.photoHint')}>
        <AvatarInput />
      </Form.Item>
      <Form.Item name="description" label={t('knowledge.description')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} style={{ maxWidth: 640 }} />
      </Form.Item>
      <Form.Item name="language" label={t('knowledge.language')}>
        <Select
          style={{ maxWidth: 240 }}
          options={KB_LANGUAGES.map((l) => ({
            value: l,
            label: t(l === 'English' ? 'knowledge.english' : 'knowledge.chinese'),
          }))}
        />
      </Form.Item>
      <Form.Item name="permission" label={t('knowledge.permissions')} extra={t('knowledge.permissionsHint')}>
        <Radio.Group
          options={KB_PERMISSIONS.map((p) => ({
            value: p,
            label: t(p === 'team' ? 'knowledge.permissionTeam' : 'knowledge.permissionMe'),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="embd_id"
        label={t('knowledge.embeddingModel')}
        extra={
          locked ? t('knowledge.embeddingLocked', { count: kb.chunk_num }) : t('knowledge.embeddingHint')
        }
      >
        <Select
          style={{ maxWidth: 480 }}
          disabled={locked}
          loading={models.isPending}
          showSearch={{ optionFilterProp: 'label' }}
          options={options}
          notFoundContent={t('knowledge.noEmbeddingModels')}
        />
      </Form.Item>
    </>
  );
}
