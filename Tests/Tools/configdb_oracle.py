#!/usr/bin/env python3
"""Checks mockgps's ZED-F9P configuration item table against pyubx2's, an independent one.

Usage: configdb_oracle.py FILE
FILE holds mockgps's table, one item a line: key ID (hexadecimal), type (L, U1, I4, R8...), name.
Prints JSON:
  {"checked": N, "groups": G, "unknown": [...], "typeMismatches": [...], "nameDifferences": [...],
   "missing": [...], "excluded": E}
- unknown: our keys pyubx2 does not have (must be empty);
- typeMismatches: our keys whose type differs from pyubx2's (must be empty);
- missing: pyubx2 keys of the groups the ZED-F9P has (the groups of our table, which are the groups
  of the HPG 1.32 interface description's configuration chapter) that our table lacks, leaving out
  the families of other u-blox receivers listed in OTHER_RECEIVERS (must be empty);
- nameDifferences: our name and pyubx2's where they differ (names changed between documents).
"""
import json
import re
import sys

from pyubx2.ubxtypes_configdb import UBX_CONFIG_DATABASE

# pyubx2 keeps every u-blox receiver's items in one table. Within the ZED-F9P's groups, these
# belong to other receivers or firmware and are not in the ZED-F9P HPG 1.32 document.
OTHER_RECEIVERS = [
    (r"CFG_GEOFENCE_(POLYGON|VERTEX)\d+_", "polygon geofences: u-blox 20 and M10"),
    (r"CFG_HW_(ANT_ON_SHORT_US|BYPASS_LDO_DIS|FLASH_REFRESH|OSC_|RF\d?_LNA_MODE|SENS_WOM_|"
     r"TCXO_DC_BIAS)", "hardware items of M10, X20 and F9R"),
    (r"CFG_(I2C|UART1|UART2)_REMAP$|CFG_I2C_PULL_UPS_DISABLED", "pin remapping: M10"),
    (r"CFG_\w+INPROT_RTCM2X", "RTCM 2 input: u-blox 8 and M9"),
    (r"CFG_MSGOUT_NMEA_ID_THS_", "NMEA THS: F9R"),
    (r"CFG_MSGOUT_RTCM_3X_TYPE10(01|02|06|07|09|10)_", "legacy RTCM 3 observations: F9T"),
    (r"CFG_MSGOUT_UBX_(AID|DBG|ESF|HNR)_", "AID, debug, sensor fusion, high-rate nav: M8, F9R"),
    (r"CFG_MSGOUT_UBX_MON_(PMP|PT2)_", "L-band and production test: NEO-D9S"),
    (r"CFG_MSGOUT_UBX_NAV2?_(ATT|EELL|PVAT|NMI|DAHEADING|TIMENAVIC|TIMETRUSTED)_",
     "attitude, dead reckoning, NavIC, dual-antenna heading: F9R, X20"),
    (r"CFG_MSGOUT_UBX_NAV_(DGPS|SOL|SVINFO)_", "u-blox 8 messages removed in u-blox 9"),
    (r"CFG_MOT_IMU_", "IMU motion filtering: F9R"),
    (r"CFG_TP_(\w+_TP2|TP2_ENA)$", "the second time pulse: timing products (F9T)"),
    (r"CFG_NAVSPG_(USE_PPP|SIGATTCOMP)$|CFG_MSGOUT_UBX_(NAV_AOPSTATUS|TIM_SVIN)_",
     "not in the HPG 1.32 document: other products and firmware"),
    (r"CFG_MSGOUT_UBX_RXM_(ALM|EPH|IMES|MEAS20|MEAS50|MEASC12|MEASD12|SVSI|TM)_",
     "receiver messages of M8, M9 and M10"),
    (r"CFG_MSGOUT_UBX_RXM_(PMP|QZSSL6)_", "L-band and QZSS L6 correction input: D9S, D9C"),
    (r"CFG_MSGOUT_UBX_SEC_(ECSIGN|OSNMA|SIG|SIGLOG)_", "security messages of HPG 1.50 and X20"),
    (r"CFG_NAV2_NAVSPG_ONLY_AUTHDATA|CFG_NAVSPG_(ONLY_AUTHDATA|MAX_TIMETRUSTED_ACC)",
     "Galileo OSNMA: HPG 1.50 and X20"),
    (r"CFG_NAVSPG_(CONSTR_DGNSSTO_SCALE|CONSTR_PROPLIMIT|DAHEADING_OFFSET|DCMMODE)",
     "navigation items of X20 and F9R"),
    (r"CFG_NAVHPG_CORR_CONV_OSR|CFG_RATE_NAV_PRIO|CFG_SBAS_(ACCEPT_NOT_IN_PRNMASK|USE_IONOONLY)",
     "items of later HPG firmware, X20 and M10"),
    (r"CFG_BDS_D1D2_NAVDATA|CFG_NMEA_FILT_NAVIC|CFG_QZSS_L6_|CFG_RTCM_(DF028_OUT|MSM_OUT_)",
     "items of X20, M10 and D9C"),
    (r"CFG_SEC_(COM_SIGN_|JAMDET_SENSITIVITY_HI|SPOOFDET_SIM_SIG_DIS)", "security: X20, M10"),
    (r"CFG_SIGNAL_(BDS_B1C|BDS_B2A|BDS_B3|GAL_E5A|GAL_E6|GPS_L5|IMES|LBAND|NAVIC|QZSS_L1CB|"
     r"QZSS_L5|PLAN)", "signals of F9P L1/L5, X20, M10 and D9S"),
    (r"CFG_TP_(\w+_TP3|TP3_ENA)$|CFG_TP_DRSTR_TP2", "third time pulse and drive strength: X20, F9T"),
]


def type_name(pyubx2_type):
    """pyubx2's 'U002' as the interface description's 'U2', and 'L001' as 'L'."""
    if pyubx2_type.startswith("L"):
        return "L"
    return pyubx2_type[0] + str(int(pyubx2_type[1:]))


def main():
    ours = {}
    with open(sys.argv[1], encoding="utf-8") as table:
        for line in table:
            fields = line.split()
            if len(fields) >= 3:
                ours[int(fields[0], 16)] = (fields[2], fields[1])
    by_id = {key: (name, type_name(kind)) for name, (key, kind) in UBX_CONFIG_DATABASE.items()}
    unknown, mismatches, renamed = [], [], []
    for key, (name, kind) in sorted(ours.items()):
        if key not in by_id:
            unknown.append(name)
        elif by_id[key][1] != kind:
            mismatches.append(f"{name}: ours {kind}, pyubx2 {by_id[key][1]}")
        elif by_id[key][0] != name.replace("-", "_"):
            renamed.append(f"{name} / {by_id[key][0]}")
    groups = {(key >> 16) & 0xFF for key in ours}
    missing, excluded = [], 0
    for key, (name, _) in sorted(by_id.items()):
        if (key >> 16) & 0xFF not in groups or key in ours:
            continue
        if any(re.match(pattern, name) for pattern, _ in OTHER_RECEIVERS):
            excluded += 1
        else:
            missing.append(name)
    print(json.dumps({"checked": len(ours), "groups": len(groups), "unknown": unknown,
                      "typeMismatches": mismatches, "nameDifferences": renamed,
                      "missing": missing, "excluded": excluded}))


if __name__ == "__main__":
    main()
