import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FileListItem } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { useCreateFolder, useRenameFile } from '../../api/file';
import { alreadyShown } from '../../api/request';
import { splitName } from './file-rules';

/** New folder (in `parentId`) or rename of `entry`; a file keeps its extension. */
export function NameDialog({
  entry,
  parentId,
  onClose,
}: {
  entry?: FileListItem;
  parentId?: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateFolder();
  const rename = useRenameFile();
  const { stem, ext } = entry ? splitName(entry.name, entry.type === 'folder') : { stem: '', ext: '' };

  const submit = async ({ name }: { name: string }) => {
    const full = `${name.trim()}${ext}`;
    if (entry && full === entry.name) return onClose();
    const result = entry
      ? await rename.mutateAsync({ fileId: entry.id, name: full })
      : await create.mutateAsync({ name: full, parentId });
    if (result.code === 0) {
      feedback.success(t(entry ? 'message.renamed' : 'message.created'));
      onClose();
    } else if (!alreadyShown(result)) {
      form.setFields([{ name: 'name', errors: [result.message] }]);
    }
  };

  return (
    <Modal
      open
      title={t(entry ? 'files.renameTitle' : 'files.newFolderTitle')}
      okText={t(entry ? 'common.save' : 'files.create')}
      cancelText={t('common.cancel')}
      confirmLoading={create.isPending || rename.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ name: stem }} onFinish={submit}>
        <Form.Item
          name="name"
          label={t('files.name')}
          extra={ext ? t('files.extensionFixed', { ext }) : undefined}
          rules={[{ required: true, whitespace: true, message: t('files.nameRequired') }]}
        >
          <Input autoFocus suffix={ext || undefined} maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
