import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Spin } from 'antd';
import { hasCredential } from '../api/storage';
import { AppLayout } from './AppLayout';

// Every screen is its own chunk, loaded when first visited.
const LoginPage = lazy(() => import('../features/login/LoginPage'));
const HomePage = lazy(() => import('../features/home/HomePage'));
const SettingsLayout = lazy(() => import('../features/settings/SettingsLayout'));
const ProfilePage = lazy(() => import('../features/settings/ProfilePage'));
const PasswordPage = lazy(() => import('../features/settings/PasswordPage'));
const ApiKeysPage = lazy(() => import('../features/settings/ApiKeysPage'));
const McpPage = lazy(() => import('../features/settings/McpPage'));
const TracingPage = lazy(() => import('../features/tracing/TracingPage'));
const ModelProvidersPage = lazy(() => import('../features/models/ModelProvidersPage'));
const TeamPage = lazy(() => import('../features/settings/TeamPage'));
const KnowledgeListPage = lazy(() => import('../features/knowledge/KnowledgeListPage'));
const KnowledgeDetailPage = lazy(() => import('../features/knowledge/KnowledgeDetailPage'));
const ChunkListPage = lazy(() => import('../features/chunks'));
const FileManagerPage = lazy(() => import('../features/files/FileManagerPage'));
const NotFoundPage = lazy(() => import('../features/placeholder/NotFoundPage'));
const ChatPage = lazy(() => import('../features/chat/ChatPage'));
const SearchPage = lazy(() => import('../features/search/SearchPage'));
const AgentListPage = lazy(() => import('../features/agent/AgentListPage'));
const AgentEditorPage = lazy(() => import('../features/agent/AgentEditorPage'));
const SharedChatPage = lazy(() => import('../features/share/SharedChatPage'));
const SearchAppPage = lazy(() => import('../features/search/SearchAppPage'));
const SharedSearchPage = lazy(() => import('../features/search/SharedSearchPage'));

function Loading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 64 }}>
      <Spin />
    </div>
  );
}

function page(node: ReactNode) {
  return <Suspense fallback={<Loading />}>{node}</Suspense>;
}

/** Protected routes: without a stored credential the sign-in page comes first. */
function RequireAuth({ children }: { children: ReactNode }) {
  return hasCredential() ? children : <Navigate to="/login" replace />;
}

/** The sign-in page is skipped when a credential is already stored. */
function PublicOnly({ children }: { children: ReactNode }) {
  return hasCredential() ? <Navigate to="/" replace /> : children;
}

export const router = createBrowserRouter([
  { path: '/login', element: <PublicOnly>{page(<LoginPage />)}</PublicOnly> },
  { path: '/chat/share', element: page(<SharedChatPage />) },
  { path: '/search/share', element: page(<SharedSearchPage />) },
  {
    path: '/',
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: page(<HomePage />) },
      { path: 'knowledge', element: page(<KnowledgeListPage />) },
      { path: 'knowledge/:kbId/*', element: page(<KnowledgeDetailPage />) },
      { path: 'knowledge/:kbId/dataset/:docId/chunks', element: page(<ChunkListPage />) },
      { path: 'chat', element: page(<ChatPage />) },
      { path: 'file', element: page(<FileManagerPage />) },
      { path: 'agent', element: page(<AgentListPage />) },
      { path: 'agent/:canvasId', element: page(<AgentEditorPage />) },
      { path: 'search', element: page(<SearchPage />) },
      { path: 'search/:searchId', element: page(<SearchAppPage />) },
      {
        path: 'user-setting',
        element: page(<SettingsLayout />),
        children: [
          { index: true, element: <Navigate to="profile" replace /> },
          { path: 'profile', element: page(<ProfilePage />) },
          { path: 'password', element: page(<PasswordPage />) },
          { path: 'model', element: page(<ModelProvidersPage />) },
          { path: 'team', element: page(<TeamPage />) },
          { path: 'api', element: page(<ApiKeysPage />) },
          { path: 'mcp', element: page(<McpPage />) },
          { path: 'tracing', element: page(<TracingPage />) },
        ],
      },
      { path: '*', element: page(<NotFoundPage />) },
    ],
  },
]);
