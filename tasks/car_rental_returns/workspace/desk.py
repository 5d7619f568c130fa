"""The rental desk: hands out cars, extends rentals, takes cars back."""
from billing import invoice
from contracts import Contract, parse_time


class DeskError(RuntimeError):
    pass


class RentalDesk:
    def __init__(self, fleet):
        self.fleet = fleet
        self.active = set()
        self.contracts = {}
        self.invoices = []

    def rented_plates(self):
        return {c.plate for c in self.active}

    def rent(self, customer, station, category, pickup, due):
        if any(c.customer == customer for c in self.open_rentals()):
            raise DeskError(f"{customer} already has an open rental")
        car = self.fleet.pick(station, category, self.rented_plates())
        contract = Contract.open(car.plate, customer, pickup, due, car.mileage)
        self.active.add(contract)
        self.contracts[contract.contract_id] = contract
        return contract

    def _open_contract(self, contract_id):
        contract = self.contracts.get(contract_id)
        if contract is None:
            raise DeskError(f"no contract {contract_id}")
        if not contract.is_open:
            raise DeskError(f"{contract_id} was returned at {contract.returned_at}")
        return contract

    def extend(self, contract_id, new_due):
        contract = self._open_contract(contract_id)
        if parse_time(new_due) <= parse_time(contract.due):
            raise DeskError("an extension must move the due time later")
        contract.due = new_due
        return contract

    def return_car(self, contract_id, at, station, mileage, fuel_eighths_missing=0):
        contract = self._open_contract(contract_id)
        if mileage < contract.mileage_out:
            raise DeskError(f"odometer {mileage} is below the {contract.mileage_out} at pickup")
        contract.returned_at = at
        contract.mileage_in = mileage
        self.active.discard(contract)
        car = self.fleet.cars[contract.plate]
        self.fleet.move(contract.plate, station, mileage)
        bill = invoice(contract, car.category, fuel_eighths_missing)
        self.invoices.append(bill)
        return bill

    def open_rentals(self):
        return sorted((c for c in self.contracts.values() if c.is_open), key=lambda c: c.contract_id)
