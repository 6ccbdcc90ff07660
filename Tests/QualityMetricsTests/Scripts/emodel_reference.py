#!/usr/bin/env python3
"""Reference values for the E-model tests, computed straight from the equations of
ITU-T G.107 (06/2015), written independently of the Swift implementation.

Every quantity is named after the Recommendation's own symbol so that each line can be
checked against the printed equation it cites. Run it to print the reference values as
JSON; the Swift tests run it and compare.

    python3 emodel_reference.py
"""

import json
import math

# G.107 (06/2015) Table 3: default values and permitted ranges of the parameters.
DEFAULTS = {
    "SLR": 8.0,     # send loudness rating, dB
    "RLR": 2.0,     # receive loudness rating, dB
    "STMR": 15.0,   # sidetone masking rating, dB
    "Ds": 3.0,      # D-value of telephone, send side
    "Dr": 3.0,      # D-value of telephone, receive side
    "TELR": 65.0,   # talker echo loudness rating, dB
    "WEPL": 110.0,  # weighted echo path loss, dB
    "T": 0.0,       # mean one-way delay of the echo path, ms
    "Tr": 0.0,      # round-trip delay in a 4-wire loop, ms
    "Ta": 0.0,      # absolute delay in echo-free connections, ms
    "qdu": 1.0,     # number of quantizing distortion units
    "Ie": 0.0,      # equipment impairment factor
    "Bpl": 4.3,     # packet-loss robustness factor
    "Ppl": 0.0,     # random packet-loss probability, %
    "BurstR": 1.0,  # burst ratio
    "Nc": -70.0,    # circuit noise referred to the 0 dBr point, dBm0p
    "Nfor": -64.0,  # noise floor at the receive side, dBmp
    "Ps": 35.0,     # room noise at the send side, dB(A)
    "Pr": 35.0,     # room noise at the receive side, dB(A)
    "A": 0.0,       # advantage factor
    "mT": 100.0,    # minimum perceivable delay, ms (Table 1, default class)
    "sT": 1.0,      # delay sensitivity (Table 1, default class)
}


def log10(x):
    return math.log(x, 10)


def rating(**overrides):
    """R and every term of equation 7-1 for the given parameters."""
    p = dict(DEFAULTS)
    p.update(overrides)
    SLR, RLR, STMR, Ds, Dr = p["SLR"], p["RLR"], p["STMR"], p["Ds"], p["Dr"]
    LSTR = STMR + Dr                      # Table 3, note: LSTR = STMR + Dr
    OLR = SLR + RLR

    # 7.2 Basic signal-to-noise ratio.
    Nfo = p["Nfor"] + RLR                                                   # (7-7)
    Pre = p["Pr"] + 10 * log10(1 + 10 ** ((10 - LSTR) / 10))                # (7-6)
    Nor = RLR - 121 + Pre + 0.008 * (Pre - 35) ** 2                         # (7-5)
    Nos = p["Ps"] - SLR - Ds - 100 + 0.004 * (p["Ps"] - OLR - Ds - 14) ** 2  # (7-4)
    No = 10 * log10(10 ** (p["Nc"] / 10) + 10 ** (Nos / 10)
                    + 10 ** (Nor / 10) + 10 ** (Nfo / 10))                  # (7-3)
    Ro = 15 - 1.5 * (SLR + No)                                              # (7-2)

    # 7.3 Simultaneous impairment factor.
    Xolr = OLR + 0.2 * (64 + No - RLR)                                      # (7-10)
    Iolr = 20 * ((1 + (Xolr / 8) ** 8) ** (1 / 8) - Xolr / 8)               # (7-9)
    STMRo = -10 * log10(10 ** (-STMR / 10)
                        + math.exp(-p["T"] / 4) * 10 ** (-p["TELR"] / 10))   # (7-12)
    Ist = (12 * (1 + ((STMRo - 13) / 6) ** 8) ** (1 / 8)
           - 28 * (1 + ((STMRo + 1) / 19.4) ** 35) ** (1 / 35)
           - 13 * (1 + ((STMRo - 3) / 33) ** 13) ** (1 / 13) + 29)           # (7-11)
    Q = 37 - 15 * log10(p["qdu"])                                           # (7-17)
    G = 1.07 + 0.258 * Q + 0.0602 * Q ** 2                                  # (7-16)
    Y = (Ro - 100) / 15 + 46 / 8.4 - G / 9                                  # (7-15)
    Z = 46 / 30 - G / 40                                                    # (7-14)
    Iq = 15 * log10(1 + 10 ** Y + 10 ** Z)                                  # (7-13)
    Is = Iolr + Ist + Iq                                                    # (7-8)

    # 7.4 Delay impairment factor.
    T = p["T"]
    TERV = (p["TELR"] - 40 * log10((1 + T / 10) / (1 + T / 150))
            + 6 * math.exp(-0.3 * T ** 2))                                  # (7-22)
    if STMR < 9:
        TERV += Ist / 2                                                     # (7-23)
    Re = 80 + 2.5 * (TERV - 14)                                             # (7-21)
    Roe = -1.5 * (No - RLR)                                                 # (7-20)
    if T < 1:
        Idte = 0.0  # "for T < 1 ms the talker echo should be considered as sidetone"
    else:
        Idte = (((Roe - Re) / 2 + math.sqrt((Roe - Re) ** 2 / 4 + 100) - 1)
                * (1 - math.exp(-T)))                                       # (7-19)
        if STMR > 20:
            Idte = math.sqrt(Idte ** 2 + Ist ** 2)                          # (7-24)
    Rle = 10.5 * (p["WEPL"] + 7) * (p["Tr"] + 1) ** (-1 / 4)                # (7-26)
    Idle = (Ro - Rle) / 2 + math.sqrt((Ro - Rle) ** 2 / 4 + 169)            # (7-25)
    Ta, mT, sT = p["Ta"], p["mT"], p["sT"]
    if Ta <= mT:
        Idd = 0.0                                                           # (7-27)
    else:
        X = log10(Ta / mT) / log10(2)                                       # (7-28)
        e = 6 * sT
        Idd = 25 * ((1 + X ** e) ** (1 / e) - 3 * (1 + (X / 3) ** e) ** (1 / e) + 2)  # (7-27)
    Id = Idte + Idle + Idd                                                  # (7-18)

    # 7.5 Effective equipment impairment factor.
    Ie, Ppl, Bpl, BurstR = p["Ie"], p["Ppl"], p["Bpl"], p["BurstR"]
    Ie_eff = Ie + (95 - Ie) * Ppl / (Ppl / BurstR + Bpl)                    # (7-29)

    R = Ro - Is - Id - Ie_eff + p["A"]                                      # (7-1)
    return {"Ro": Ro, "No": No, "Is": Is, "Iolr": Iolr, "Ist": Ist, "Iq": Iq,
            "Id": Id, "Idte": Idte, "Idle": Idle, "Idd": Idd,
            "Ie_eff": Ie_eff, "R": R}


def mos_cqe(R):
    """Annex B, equation B-4, with the lower bound of 6.5 of the 2011 and later editions."""
    if R < 6.5:
        return 1.0
    if R > 100:
        return 4.5
    return 1 + 0.035 * R + R * (R - 60) * (100 - R) * 7e-6


def main():
    references = {
        "defaults": rating(),
        "g711_plc_2_percent_random": rating(Ie=0, Bpl=25.1, Ppl=2, BurstR=1),
        "g711_no_plc_1_percent_random": rating(Ie=0, Bpl=4.3, Ppl=1, BurstR=1),
        "delay": {str(ta): rating(Ta=ta) for ta in (150, 200, 300, 400)},
        "delay_low_sensitivity": {str(ta): rating(Ta=ta, mT=120, sT=0.55) for ta in (150, 200, 300, 400)},
        "delay_very_low_sensitivity": {str(ta): rating(Ta=ta, mT=150, sT=0.4) for ta in (150, 200, 300, 400)},
        "echo_t_50_telr_55": rating(T=50, TELR=55),
        "mos": {str(r): mos_cqe(r) for r in (50, 70, 80, 90, 100)},
    }
    print(json.dumps(references, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
