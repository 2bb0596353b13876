"""
The Matter reference SDK's Python controller (connectedhomeip, published as home-assistant-chip-core), driven over
JSON lines on stdin/stdout so the interop tests (TypeScript, node:test) can commission and talk to the hub's bridges
with the controller the phone apps are certified against (docs/INTEROP.md).

Request:  {"id": 1, "op": "commission", ...}            one JSON object per line on stdin
Answer:   {"id": 1, "ok": true, "result": ...}          or {"id": 1, "ok": false, "error": {...}}
Event:    {"event": "report", "controller": "a", "subscription": 3, "node": 10, "endpoint": 2,
           "cluster": "OnOff", "attribute": "OnOff", "value": true}
          {"event": "matter_event", "controller": "a", "subscription": 3, "node": 10, "endpoint": 5,
           "cluster": "Switch", "name": "InitialPress", "number": 7, "value": {"newPosition": 1}}

Names are the SDK's Python names (Clusters.OnOff.Attributes.OnOff -> cluster "OnOff", attribute "OnOff").
Values are JSON: enums and bitmaps as numbers, Null as null, bytes as {"hex": "..."}, structs as objects.
"""

import asyncio
import dataclasses
import enum
import json
import logging
import os
import sys
import threading
import traceback

# The SDK's native log is printf on fd 1, from its own thread: a JSON line written there could be cut by a log line
# mid-write and lost (a report never seen, an answer never received). The JSON lines get a duplicate of the pipe to
# the test; fd 1 then points at stderr, so the native log goes where the Python log goes (the .chip.log file).
_channel = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)

import chip.native  # noqa: E402

chip.native.Init(999)  # 999: a Bluetooth adapter that does not exist, so BLE stays unused

import chip.CertificateAuthority  # noqa: E402
import chip.clusters as Clusters  # noqa: E402
from chip.ChipDeviceCtrl import DiscoveryType, TransportPayloadCapability  # noqa: E402
from chip.ChipStack import ChipStack  # noqa: E402
from chip.clusters.Attribute import ValueDecodeFailure  # noqa: E402
from chip.clusters.ClusterObjects import ALL_CLUSTERS  # noqa: E402
from chip.clusters.Types import Nullable, NullValue  # noqa: E402
from chip.exceptions import ChipStackError  # noqa: E402
from chip.interaction_model import InteractionModelError  # noqa: E402

_out_lock = threading.Lock()


def emit(message):
    line = json.dumps(message, default=str)
    with _out_lock:
        _channel.write(line + "\n")
        _channel.flush()


def to_json(value):
    """SDK values to plain JSON."""
    if value is NullValue or isinstance(value, Nullable):
        return None
    if isinstance(value, ValueDecodeFailure):
        return {"decodeError": str(value.Reason)}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, enum.Enum):
        return int(value.value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value
    if isinstance(value, (bytes, bytearray)):
        return {"hex": bytes(value).hex()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value):
        return {field.name: to_json(getattr(value, field.name)) for field in dataclasses.fields(value)}
    return str(value)


def from_json(value):
    """JSON arguments to SDK values: {"hex": ...} and {"text": ...} become bytes, everything else passes."""
    if isinstance(value, dict):
        if set(value) == {"hex"}:
            return bytes.fromhex(value["hex"])
        if set(value) == {"text"}:
            return value["text"].encode()
        return {key: from_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_json(item) for item in value]
    return value


def cluster_of(name):
    cluster = getattr(Clusters, name, None)
    if cluster is None:
        raise ValueError(f"unknown cluster {name}")
    return cluster


def attribute_path(spec):
    """[endpoint|null, cluster|null, attribute|null] -> an SDK attribute path tuple."""
    endpoint, cluster_name, attribute_name = (list(spec) + [None, None, None])[:3]
    if cluster_name is None:
        return () if endpoint is None else endpoint
    cluster = cluster_of(cluster_name)
    target = cluster if attribute_name is None else getattr(cluster.Attributes, attribute_name)
    return target if endpoint is None else (endpoint, target)


def event_path(spec):
    """[endpoint|null, cluster|null, event|null] -> an SDK event path tuple, urgent (reported at once)."""
    endpoint, cluster_name, event_name = (list(spec) + [None, None, None])[:3]
    if cluster_name is None:
        return ("*", 1) if endpoint is None else (endpoint, 1)
    cluster = cluster_of(cluster_name)
    target = cluster if event_name is None else getattr(cluster.Events, event_name)
    return (target, 1) if endpoint is None else (endpoint, target, 1)


def raw_result(tlv):
    """{endpoint: {cluster id: {attribute id: TLV value}}} -> JSON keyed by ids, for clusters and attributes the
    SDK has no schema for too; an attribute the device refused to report becomes {"status": "<IM status>"}."""
    out = {}
    for endpoint, clusters in tlv.items():
        for cluster_id, values in clusters.items():
            target = out.setdefault(str(endpoint), {}).setdefault(str(cluster_id), {})
            for attribute_id, value in values.items():
                if isinstance(value, ValueDecodeFailure):
                    reason = value.Reason
                    status = reason.status.name if isinstance(reason, InteractionModelError) else str(reason)
                    target[str(attribute_id)] = {"status": status}
                else:
                    target[str(attribute_id)] = to_json(value)
    return out


def read_result(attributes):
    """{endpoint: {Cluster: {Attribute: value}}} -> {"2": {"OnOff": {"OnOff": true}}} (data versions left out)."""
    out = {}
    for endpoint, clusters in attributes.items():
        for cluster, values in clusters.items():
            cluster_name = getattr(cluster, "__name__", str(cluster))
            target = out.setdefault(str(endpoint), {}).setdefault(cluster_name, {})
            for attribute, value in values.items():
                name = getattr(attribute, "__name__", str(attribute))
                if name == "DataVersion":
                    continue
                target[name] = to_json(value)
    return out


def error_json(error):
    if isinstance(error, InteractionModelError):
        return {
            "type": "InteractionModelError",
            "status": error.status.name,
            "code": int(error.status),
            "clusterStatus": error.clusterStatus,
            "message": str(error),
        }
    if isinstance(error, ChipStackError):
        return {"type": "ChipStackError", "code": error.code, "message": str(error)}
    return {"type": type(error).__name__, "message": str(error)}


class Driver:
    def __init__(self):
        self.stack = None
        self.certificates = None
        self.controllers = {}
        self.subscriptions = {}
        self.next_subscription = 1

    async def op_init(self, storage, paa, controllers):
        # Server interactions on, as Home Assistant's Matter server runs it: a bridge can then open CASE sessions to the
        # controller, which Matter 1.3 subscription resumption after a bridge restart needs.
        self.stack = ChipStack(persistentStoragePath=storage, enableServerInteractions=True)
        self.certificates = chip.CertificateAuthority.CertificateAuthorityManager(chipStack=self.stack)
        self.certificates.LoadAuthoritiesFromStorage()
        for index, spec in enumerate(controllers):
            # One certificate authority per controller: two fabrics, as two phone apps would have.
            authority = (
                self.certificates.activeCaList[index]
                if len(self.certificates.activeCaList) > index
                else self.certificates.NewCertificateAuthority()
            )
            admin = authority.adminList[0] if authority.adminList else authority.NewFabricAdmin(
                vendorId=spec.get("vendorId", 0xFFF1), fabricId=spec.get("fabricId", index + 1)
            )
            self.controllers[spec["name"]] = admin.NewController(
                nodeId=spec.get("nodeId", 112233 + index), paaTrustStorePath=paa
            )
        return sorted(self.controllers)

    def ctrl(self, name):
        controller = self.controllers.get(name)
        if controller is None:
            raise ValueError(f"unknown controller {name}")
        return controller

    async def op_commission(self, controller, node, code=None, address=None, port=None, passcode=None):
        ctrl = self.ctrl(controller)
        if address is None:
            return await ctrl.CommissionWithCode(
                setupPayload=code, nodeid=node, discoveryType=DiscoveryType.DISCOVERY_NETWORK_ONLY
            )
        # By address: PASE straight to ip:port (the commissionable record is not used); the operational record
        # (_matter._tcp) is still resolved over DNS-SD after AddNOC, as every CASE connection does.
        await ctrl.EstablishPASESessionIP(address, passcode, node, port)
        return await ctrl.Commission(node)

    async def op_read(self, controller, node, paths, fabricFiltered=True, raw=False):
        """raw: keyed by ids from the undecoded TLV (every attribute the device sent, known to the SDK or not)."""
        response = await self.ctrl(controller).Read(
            node, attributes=[attribute_path(path) for path in paths], fabricFiltered=fabricFiltered
        )
        return raw_result(response.tlvAttributes) if raw else read_result(response.attributes)

    async def op_subscribe(self, controller, node, paths, events=None, minInterval=0, maxInterval=10):
        ctrl = self.ctrl(controller)
        loop = asyncio.get_running_loop()
        transaction = await ctrl.Read(
            node,
            attributes=[attribute_path(path) for path in paths],
            events=[event_path(path) for path in events] if events else None,
            reportInterval=(minInterval, maxInterval),
            keepSubscriptions=True,
            autoResubscribe=True,
        )
        number = self.next_subscription
        self.next_subscription += 1
        self.subscriptions[number] = transaction

        def on_change(path, txn):
            value = to_json(txn.GetAttribute(path))
            message = {
                "event": "report",
                "controller": controller,
                "subscription": number,
                "node": node,
                "endpoint": path.Path.EndpointId,
                "cluster": path.ClusterType.__name__,
                "attribute": path.AttributeType.__name__,
                "value": value,
            }
            loop.call_soon_threadsafe(emit, message)

        def on_event(result, txn):
            header = result.Header
            cluster = ALL_CLUSTERS.get(header.ClusterId)
            data = result.Data
            message = {
                "event": "matter_event",
                "controller": controller,
                "subscription": number,
                "node": node,
                "endpoint": header.EndpointId,
                "cluster": cluster.__name__ if cluster else header.ClusterId,
                "name": type(data).__name__ if not isinstance(data, ValueDecodeFailure) else header.EventId,
                "number": header.EventNumber,
                "value": to_json(data),
            }
            loop.call_soon_threadsafe(emit, message)

        def on_resubscribed(txn):
            loop.call_soon_threadsafe(emit, {"event": "resubscribed", "controller": controller, "subscription": number})

        def on_attempt(txn, error, next_ms):
            loop.call_soon_threadsafe(
                emit,
                {"event": "resubscribing", "controller": controller, "subscription": number, "error": error, "nextMs": next_ms},
            )

        transaction.SetAttributeUpdateCallback(on_change)
        transaction.SetEventUpdateCallback(on_event)
        transaction.SetResubscriptionSucceededCallback(on_resubscribed)
        transaction.SetResubscriptionAttemptedCallback(on_attempt)
        return {"subscription": number, "values": read_result(transaction.GetAttributes())}

    async def op_unsubscribe(self, subscription):
        transaction = self.subscriptions.pop(subscription, None)
        if transaction is not None:
            transaction.Shutdown()
        return True

    async def op_invoke(
        self, controller, node, endpoint, cluster, command, args=None, timedRequestTimeoutMs=None, largePayload=False
    ):
        """largePayload: over a session able to carry large messages (TCP), as camera commands require."""
        command_class = getattr(cluster_of(cluster).Commands, command, None)
        if command_class is None:
            raise ValueError(f"unknown command {cluster}.{command}")
        payload = command_class(**from_json(args or {}))
        capability = TransportPayloadCapability.LARGE_PAYLOAD if largePayload else TransportPayloadCapability.MRP_PAYLOAD
        response = await self.ctrl(controller).SendCommand(
            node, endpoint, payload, timedRequestTimeoutMs=timedRequestTimeoutMs, payloadCapability=capability
        )
        return to_json(response)

    async def op_write(self, controller, node, endpoint, cluster, attribute, value):
        descriptor = getattr(cluster_of(cluster).Attributes, attribute)
        results = await self.ctrl(controller).WriteAttribute(node, [(endpoint, descriptor(from_json(value)))])
        return [{"status": result.Status.name} for result in results]

    async def op_open_window(self, controller, node, timeout=180, iteration=1000, discriminator=3000):
        ctrl = self.ctrl(controller)
        params = await ctrl.OpenCommissioningWindow(
            nodeid=node,
            timeout=timeout,
            iteration=iteration,
            discriminator=discriminator,
            option=ctrl.CommissioningWindowPasscode.kTokenWithRandomPin,
        )
        return {"manualCode": params.setupManualCode, "qrCode": params.setupQRCode, "passcode": params.setupPinCode}

    async def op_unpair(self, controller, node):
        await self.ctrl(controller).UnpairDevice(node)
        return True

    async def op_expire_sessions(self, controller, node):
        self.ctrl(controller).ExpireSessions(node)
        return True

    def shutdown(self):
        for transaction in self.subscriptions.values():
            transaction.Shutdown()
        self.subscriptions.clear()
        for controller in self.controllers.values():
            controller.Shutdown()
        self.controllers.clear()
        if self.certificates is not None:
            self.certificates.Shutdown()
        if self.stack is not None:
            self.stack.Shutdown()


async def main():
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    driver = Driver()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    emit({"event": "ready"})
    pending = set()

    async def handle(request):
        number = request.get("id")
        try:
            op = getattr(driver, "op_" + request["op"], None)
            if op is None:
                raise ValueError(f"unknown op {request['op']}")
            args = {key: value for key, value in request.items() if key not in ("id", "op")}
            emit({"id": number, "ok": True, "result": await op(**args)})
        except Exception as error:  # every failure goes back to the test, which decides
            detail = error_json(error)
            detail["trace"] = traceback.format_exc(limit=3)
            emit({"id": number, "ok": False, "error": detail})

    while True:
        line = await reader.readline()
        if not line:
            break
        request = json.loads(line)
        if request.get("op") == "shutdown":
            await asyncio.gather(*pending, return_exceptions=True)
            break
        task = asyncio.create_task(handle(request))
        pending.add(task)
        task.add_done_callback(pending.discard)
    driver.shutdown()
    emit({"event": "stopped"})


if __name__ == "__main__":
    asyncio.run(main())
