import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback, navigation } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { clearSession } from '../../api/storage';
import { flashOnNextPage } from '../../components/flash';
import { useSaveSetting } from '../../api/user';
import { passwordRules } from '../../lib/password-rules';
import { SectionHeading } from '../../components/SectionHeading';

interface PasswordValues {
  password: string;
  new_password: string;
  confirm: string;
}

export default function PasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const save = useSaveSetting();

  const submit = async ({ password, new_password }: PasswordValues) => {
    const result = await save.mutateAsync({ password, new_password });
    if (result.code === 0) {
      // The server ended every session of this account (this one too): sign in again.
      clearSession();
      feedback.success(t('message.modified'));
      flashOnNextPage('message.passwordChanged');
      navigation.toLogin();
    } else if (!alreadyShown(result)) {
      form.setFields([{ name: 'password', errors: [result.message] }]);
    }
  };

  return (
    <>
      <SectionHeading title={t('settings.password')} description={t('settings.passwordDescription')} />
      <Form<PasswordValues> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 480 }}>
        <Form.Item
          label={t('settings.currentPassword')}
          name="password"
          rules={[{ required: true, message: t('settings.currentPasswordRequired') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label={t('settings.newPassword')}
          name="new_password"
          rules={passwordRules(t('settings.newPasswordRequired'), t('settings.passwordTooShort'))}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={t('settings.confirmPassword')}
          name="confirm"
          dependencies={['new_password']}
          rules={[
            { required: true, message: t('settings.confirmPasswordRequired') },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || getFieldValue('new_password') === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('settings.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </>
  );
}
