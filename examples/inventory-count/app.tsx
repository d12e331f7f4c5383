import { useEffect, useState, useSyncExternalStore } from 'react';
import { MirrorProvider, useMirror } from 'pos-cloud-mirror/react';
import type { BootedApp } from '../shared/boot.js';
import { toIntlLocale, type CollectionName, type ObservableValue } from 'pos-cloud-mirror';
import { renderStatus } from '../shared/status-bar.js';
import { CountScreen } from './count-screen.js';
import { loadSetup, saveSetup, type CountSetup } from './setup.js';
import { SetupScreen } from './setup-screen.js';
import { ViewBoundary } from './view-boundary.js';

/** What a count needs on the device; stock-ups and stock history are pushed from here too. */
export const COLLECTIONS: CollectionName[] = ['shops', 'cash_registers', 'employees', 'warehouses', 'products', 'product_price_matrix', 'stockup', 'stock_history'];

/** The page's fixed parts that the app fills: the status bar, the first sync's progress, the title. */
export interface Shell {
  status: HTMLElement;
  progress: HTMLElement;
  title: HTMLElement;
}

/**
 * The app: the booked mirror is given to a `MirrorProvider`, which starts it once a token is
 * known (`connected`) and stops it if the app unmounts.
 */
export function App({ booted, connected, shell }: { booted: BootedApp; connected: ObservableValue<boolean>; shell: Shell }) {
  const started = useSyncExternalStore(
    (changed) => {
      const subscription = connected.subscribe(changed);
      return () => subscription.unsubscribe();
    },
    () => connected.value,
  );
  return (
    <MirrorProvider mirror={booted.mirror} start={started}>
      <SyncStatus booted={booted} shell={shell} />
      <Screens booted={booted} shell={shell} />
    </MirrorProvider>
  );
}

/** The shared status bar (plain DOM, as in the other examples), drawn while mounted. */
function SyncStatus({ booted, shell }: { booted: BootedApp; shell: Shell }) {
  const mirror = useMirror();
  useEffect(() => {
    if (!mirror) return undefined;
    return renderStatus(mirror, shell.status, shell.progress, { collections: COLLECTIONS, hasToken: () => booted.client.hasToken });
  }, [mirror, booted, shell]);
  return null;
}

/** The setup screen, or the count of the warehouse picked (remembered on this device). */
function Screens({ booted, shell }: { booted: BootedApp; shell: Shell }) {
  const mirror = useMirror();
  const scope = booted.mirror.db.name;
  const [setup, setSetup] = useState(() => loadSetup(scope));
  const [choosing, setChoosing] = useState(setup === undefined);
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  if (!mirror) return null;

  if (choosing || !setup) {
    return (
      <ViewBoundary key="setup" what="the choice of warehouse">
        <SetupScreen
          current={setup}
          onPicked={(picked: CountSetup) => {
            saveSetup(scope, picked);
            setSetup(picked);
            setChoosing(false);
          }}
        />
      </ViewBoundary>
    );
  }
  return (
    <ViewBoundary key={setup.warehouseId} what="the count">
      <CountScreen
        mirror={mirror}
        client={booted.client}
        setup={setup}
        scope={scope}
        // The device's language as Intl takes it: some report a tag Intl refuses ("C" in WebKitGTK under LANG=C.UTF-8).
        locale={toIntlLocale(navigator.language)}
        titleEl={shell.title}
        onChangeWarehouse={() => setChoosing(true)}
      />
    </ViewBoundary>
  );
}
