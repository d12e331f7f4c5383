import { useState } from 'react';
import { useLiveQuery } from 'pos-cloud-mirror/react';
import { loadChoices, type CountSetup } from './setup.js';

/**
 * Pick who counts, the register the count is booked at, and the warehouse. Works from the local
 * copy, so it works offline once the first sync has run.
 */
export function SetupScreen({ current, onPicked }: { current: CountSetup | undefined; onPicked(setup: CountSetup): void }) {
  const choices = useLiveQuery((mirror) => loadChoices(mirror), []);
  const [employeeId, setEmployeeId] = useState(current?.employeeId);
  const [registerId, setRegisterId] = useState(current?.registerId);
  if (!choices) return null;
  if (choices.warehouses.length === 0) return <div className="card empty">No warehouses on this device yet. They appear after the first sync.</div>;

  const employee = employeeId ?? choices.employees[0]?.id;
  const register = registerId ?? choices.registers[0]?.register.id;
  return (
    <>
      <div className="card setup">
        <div className="card-head">
          <h2>Start a count</h2>
        </div>
        <div className="card-body setup-fields">
          <label>
            Counted by
            <select data-test="employee" value={employee} onChange={(e) => setEmployeeId(e.target.value)}>
              {choices.employees.map((e) => (
                <option key={e.id} value={e.id}>{String(e.name)}</option>
              ))}
            </select>
          </label>
          <label>
            Booked at register
            <select data-test="register" value={register} onChange={(e) => setRegisterId(e.target.value)}>
              {choices.registers.map(({ register: r, shop }) => (
                <option key={r.id} value={r.id}>{`${String(shop?.name ?? '')} · ${String(r.name)}`}</option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <h2 className="section-title">Which warehouse?</h2>
      <div className="warehouse-grid">
        {choices.warehouses.map((w) => (
          <button
            key={w.id}
            className="card warehouse"
            data-test="warehouse"
            data-warehouse-id={w.id}
            onClick={() => employee && register && onPicked({ warehouseId: w.id, employeeId: employee, registerId: register })}
          >
            <strong>{String(w.name)}</strong>
            <span className="muted small">{w.shared ? 'Shared warehouse' : 'Warehouse'}</span>
          </button>
        ))}
      </div>
    </>
  );
}
