/// <reference types="vite/client" />

/** Settings the server writes into /config.js (loaded before the app, see index.html). */
interface PortalConfig {
  apiBaseUrl?: string;
  posthogKey?: string;
}

interface Window {
  __PORTAL_CONFIG__?: PortalConfig;
}
