import { nearestPoints, type Near, type Locker, type Lockers } from './lockers';

/**
 * The demo store's PUDO lockers (LOCKERS_ZA=demo, the default in demo mode): a fixed list in
 * PUDO's own shape, searched by the same rule as PUDO's answer, so the demo shows lockers at
 * checkout without a key or the network, as the store's own courier stands in for a real one.
 */
const DEMO_LOCKERS: readonly Omit<Locker, 'distanceKm'>[] = [
  { id: 'DEMO-JHB-ROS', name: 'Rosebank Mall', address: '50 Bath Avenue, Rosebank', city: 'Johannesburg', postcode: '2196', latitude: -26.1456, longitude: 28.0416, kind: 'locker' },
  { id: 'DEMO-JHB-SAN', name: 'Sandton City', address: '83 Rivonia Road, Sandhurst', city: 'Johannesburg', postcode: '2196', latitude: -26.1076, longitude: 28.0567, kind: 'locker' },
  { id: 'DEMO-JHB-HYD', name: 'Hyde Park Corner', address: 'Jan Smuts Avenue, Hyde Park', city: 'Johannesburg', postcode: '2196', latitude: -26.1255, longitude: 28.0347, kind: 'locker' },
  { id: 'DEMO-JHB-MEL', name: 'Melrose Arch', address: '30 Melrose Boulevard, Melrose', city: 'Johannesburg', postcode: '2076', latitude: -26.1339, longitude: 28.0680, kind: 'kiosk' },
  { id: 'DEMO-PTA-MEN', name: 'Menlyn Maine', address: 'Amarand Avenue, Menlyn', city: 'Pretoria', postcode: '0181', latitude: -25.7836, longitude: 28.2772, kind: 'kiosk' },
  { id: 'DEMO-CPT-VAW', name: 'V&A Waterfront', address: '19 Dock Road, Waterfront', city: 'Cape Town', postcode: '8001', latitude: -33.9036, longitude: 18.4208, kind: 'locker' },
  { id: 'DEMO-CPT-CAV', name: 'Cavendish Square', address: 'Dreyer Street, Claremont', city: 'Cape Town', postcode: '7708', latitude: -33.9806, longitude: 18.4653, kind: 'locker' },
  { id: 'DEMO-DUR-GAT', name: 'Gateway Theatre of Shopping', address: '1 Palm Boulevard, Umhlanga Ridge', city: 'Durban', postcode: '4319', latitude: -29.7276, longitude: 31.0672, kind: 'locker' },
];

export function createDemoLockers(): Lockers {
  return {
    name: 'pudo',
    async lockers(near: Near, limit = 10) {
      return nearestPoints(DEMO_LOCKERS, near, limit);
    },
    async locker(id: string) {
      const found = DEMO_LOCKERS.find((l) => l.id === id);
      return found ? { ...found, distanceKm: null } : null;
    },
  };
}
