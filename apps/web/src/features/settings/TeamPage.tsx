import { useState } from 'react';
import { Avatar, Button, Empty, Input, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { UserAddOutlined, UserOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { JoinedTeam, TeamMember } from '@lectern/shared';
import { feedback } from '../../api/feedback';
import { alreadyShown, type ApiResult } from '../../api/request';
import { useAgree, useInvite, useJoinedTeams, useRemoveMember, useTeamMembers } from '../../api/tenant';
import { useUserInfo } from '../../api/user';
import { SectionHeading } from '../../components/SectionHeading';

/** A person of a team row: picture and name. */
function Person({ avatar, name }: { avatar: string | null; name: string }) {
  return (
    <Space size={8}>
      <Avatar size={24} src={avatar || undefined} icon={<UserOutlined />} alt="" />
      <span>{name}</span>
    </Space>
  );
}

/** Team settings (SPEC §2, API.md §3): members of my team, invitations to other teams, teams I joined. */
export default function TeamPage() {
  const { t } = useTranslation();
  const me = useUserInfo().data;
  const myId = me?.id ?? '';
  const members = useTeamMembers(me?.id);
  const joined = useJoinedTeams();
  const invite = useInvite(myId);
  const remove = useRemoveMember();
  const agree = useAgree();
  const [email, setEmail] = useState('');

  const report = (result: ApiResult<unknown>, success: string) => {
    if (result.code === 0) feedback.success(success);
    else if (!alreadyShown(result)) feedback.error(result.message);
    return result.code === 0;
  };
  const others = (joined.data ?? []).filter((team) => team.tenant_id !== myId);
  const pending = others.filter((team) => team.role === 'invite');
  const teams = others.filter((team) => team.role !== 'invite');

  return (
    <>
      <SectionHeading title={t('settings.team')} description={t('settings.teamDescription')} />
      <Space.Compact style={{ marginBottom: 16, maxWidth: 480, width: '100%' }}>
        <Input
          type="email"
          value={email}
          placeholder={t('team.emailPlaceholder')}
          aria-label={t('team.emailPlaceholder')}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button
          type="primary"
          icon={<UserAddOutlined />}
          disabled={!email.trim()}
          loading={invite.isPending}
          onClick={async () => {
            if (report(await invite.mutateAsync(email.trim()), t('team.invited'))) setEmail('');
          }}
        >
          {t('team.invite')}
        </Button>
      </Space.Compact>
      <Typography.Title level={5}>{t('team.members')}</Typography.Title>
      <Table<TeamMember>
        rowKey="id"
        loading={members.isPending}
        dataSource={members.data ?? []}
        pagination={false}
        locale={{ emptyText: <Empty description={t('team.noMembers')} /> }}
        columns={[
          {
            title: t('team.name'),
            dataIndex: 'nickname',
            render: (_, row) => <Person avatar={row.avatar} name={row.nickname} />,
          },
          { title: t('team.email'), dataIndex: 'email' },
          {
            title: t('team.role'),
            dataIndex: 'role',
            render: (role: string) => (role === 'invite' ? t('team.pending') : t('team.member')),
          },
          {
            title: t('team.status'),
            key: 'status',
            render: (_, row) => (
              <Space size={4} wrap>
                {row.role === 'invite' ? (
                  <Tag color="gold">{t('team.awaitingReply')}</Tag>
                ) : (
                  <Tag color="green">{t('team.active')}</Tag>
                )}
                {row.update_date && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('team.since', { date: dayjs(row.update_date).format('YYYY-MM-DD') })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: '',
            key: 'remove',
            render: (_, row) => (
              <Popconfirm
                title={t('team.removeConfirm', { name: row.nickname })}
                okText={t('team.remove')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () =>
                  report(await remove.mutateAsync({ tenantId: myId, userId: row.user_id }), t('team.removed'))
                }
              >
                <Button danger size="small">
                  {t('team.remove')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('team.invitations')}
      </Typography.Title>
      <Table<JoinedTeam>
        rowKey="tenant_id"
        loading={joined.isPending}
        dataSource={pending}
        pagination={false}
        locale={{ emptyText: <Empty description={t('team.noInvitations')} /> }}
        columns={[
          {
            title: t('team.owner'),
            dataIndex: 'nickname',
            render: (_, row) => <Person avatar={row.avatar} name={row.nickname} />,
          },
          { title: t('team.email'), dataIndex: 'email' },
          {
            title: '',
            key: 'actions',
            render: (_, row) => (
              <Space>
                <Button
                  type="primary"
                  size="small"
                  onClick={async () =>
                    report(await agree.mutateAsync(row.tenant_id), t('team.joinedMessage'))
                  }
                >
                  {t('team.agree')}
                </Button>
                <Button
                  size="small"
                  onClick={async () =>
                    report(
                      await remove.mutateAsync({ tenantId: row.tenant_id, userId: myId }),
                      t('team.refused'),
                    )
                  }
                >
                  {t('team.refuse')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('team.joined')}
      </Typography.Title>
      <Table<JoinedTeam>
        rowKey="tenant_id"
        loading={joined.isPending}
        dataSource={teams}
        pagination={false}
        locale={{ emptyText: <Empty description={t('team.noTeams')} /> }}
        columns={[
          {
            title: t('team.owner'),
            dataIndex: 'nickname',
            render: (_, row) => <Person avatar={row.avatar} name={row.nickname} />,
          },
          { title: t('team.email'), dataIndex: 'email' },
          {
            title: '',
            key: 'quit',
            render: (_, row) => (
              <Popconfirm
                title={t('team.quitConfirm', { name: row.nickname })}
                okText={t('team.quit')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () =>
                  report(await remove.mutateAsync({ tenantId: row.tenant_id, userId: myId }), t('team.left'))
                }
              >
                <Button danger size="small">
                  {t('team.quit')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </>
  );
}
