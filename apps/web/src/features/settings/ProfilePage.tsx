import { useEffect, useState } from 'react';
import { Avatar, Button, Form, Input, Radio, Select, Space, Spin, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COLOR_SCHEMAS, LANGUAGES, LANGUAGE_NAMES, type LanguageCode } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { alreadyShown } from '../../api/request';
import { useSaveSetting, useUserInfo } from '../../api/user';
import { languageCodeOfName, NATIVE_LANGUAGE_NAMES, currentLanguage } from '../../i18n';
import { applyProfilePreferences } from '../../lib/preferences';
import { readAsDataUrl } from '../../lib/read-file';
import { DEFAULT_TIMEZONE, timezoneOptions } from '../../lib/timezones';
import { SectionHeading } from '../../components/SectionHeading';

interface ProfileValues {
  nickname: string;
  timezone: string;
  language: LanguageCode;
  color_schema: string;
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProfileValues>();
  const { data: user, isPending } = useUserInfo();
  const save = useSaveSetting();
  // undefined = unchanged, null = removed, string = a newly chosen picture (data URL).
  const [avatar, setAvatar] = useState<string | null | undefined>(undefined);

  useEffect(() => {
    if (!user) return;
    form.setFieldsValue({
      nickname: user.nickname,
      timezone: user.timezone || DEFAULT_TIMEZONE,
      language: languageCodeOfName(user.language) ?? currentLanguage(),
      color_schema: user.color_schema === 'Dark' ? 'Dark' : 'Bright',
    });
  }, [user, form]);

  if (isPending && !user) return <Spin />;
  const shownAvatar = avatar === undefined ? user?.avatar : avatar;

  const pickAvatar = async (file: File) => {
    if (!file.type.startsWith('image/')) {
      feedback.error(t('settings.avatarNotImage'));
      return;
    }
    setAvatar(await readAsDataUrl(file));
  };

  const submit = async (values: ProfileValues) => {
    const language = LANGUAGE_NAMES[values.language];
    const result = await save.mutateAsync({
      nickname: values.nickname.trim(),
      timezone: values.timezone,
      language,
      color_schema: values.color_schema,
      ...(avatar !== undefined ? { avatar } : {}),
    });
    if (result.code === 0) {
      setAvatar(undefined);
      await applyProfilePreferences({ color_schema: values.color_schema, language });
      feedback.success(t('message.modified'));
    } else if (!alreadyShown(result)) {
      feedback.error(t('message.saveFailed', { message: result.message }));
    }
  };

  return (
    <>
      <SectionHeading title={t('settings.profile')} description={t('settings.profileDescription')} />
      <Form<ProfileValues> form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 560 }}>
        <Form.Item
          label={t('settings.username')}
          name="nickname"
          rules={[{ required: true, whitespace: true, message: t('settings.usernameRequired') }]}
        >
          <Input autoComplete="nickname" maxLength={100} />
        </Form.Item>
        <Form.Item label={t('settings.email')} extra={t('settings.emailFixed')}>
          <Typography.Text>{user?.email}</Typography.Text>
        </Form.Item>
        <Form.Item label={t('settings.avatar')} extra={t('settings.avatarHint')}>
          <Space align="center" size="large">
            <Avatar
              size={64}
              src={shownAvatar ?? undefined}
              icon={<UserOutlined />}
              alt={t('settings.avatarAlt', { name: user?.nickname ?? '' })}
              data-testid="profile-avatar"
            />
            <Upload
              accept="image/*"
              showUploadList={false}
              maxCount={1}
              beforeUpload={(file) => {
                void pickAvatar(file);
                return Upload.LIST_IGNORE;
              }}
            >
              <Button icon={<UploadOutlined />}>{t('settings.uploadAvatar')}</Button>
            </Upload>
            {shownAvatar && (
              <Button icon={<DeleteOutlined />} onClick={() => setAvatar(null)}>
                {t('settings.removeAvatar')}
              </Button>
            )}
          </Space>
        </Form.Item>
        <Form.Item
          label={t('settings.timezone')}
          name="timezone"
          rules={[{ required: true, message: t('settings.timezoneRequired') }]}
        >
          <Select showSearch={{ optionFilterProp: 'label' }} options={timezoneOptions(user?.timezone)} />
        </Form.Item>
        <Form.Item
          label={t('settings.language')}
          name="language"
          rules={[{ required: true, message: t('settings.languageRequired') }]}
        >
          <Select options={LANGUAGES.map((lng) => ({ value: lng, label: NATIVE_LANGUAGE_NAMES[lng] }))} />
        </Form.Item>
        <Form.Item
          label={t('settings.colorSchema')}
          name="color_schema"
          rules={[{ required: true, message: t('settings.colorSchemaRequired') }]}
        >
          <Radio.Group
            optionType="button"
            options={COLOR_SCHEMAS.map((c) => ({
              value: c,
              label: t(c === 'Dark' ? 'settings.dark' : 'settings.bright'),
            }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form>
    </>
  );
}
